/// From Android 12 (targetSdk 31) an app whose component has an intent filter but no explicit `android:exported`
/// does not install. Below 31 such a component is exported implicitly.
public struct ExportedMissing: AndroidManifestRule {
    public let descriptor = RuleDescriptor(
        id: "android-exported-missing",
        severity: .error,
        summary: "A component with an intent filter does not declare android:exported (required from targetSdk 31).",
        hint: "Add android:exported=\"true\" (the auth activity must be exported) or \"false\" to the component.",
        reference: .androidExported)

    public init() {}

    static let firstLevelRequiringIt = 31

    public func check(_ manifest: AndroidManifest, context: LintContext) -> [Diagnosis] {
        let targetSdk = manifest.targetSdk(override: context.targetSdkOverride)
        if let targetSdk, targetSdk < Self.firstLevelRequiringIt { return [] }
        return manifest.components.compactMap { component in
            guard component.exported == nil, !component.intentFilters.isEmpty else { return nil }
            guard targetSdk != nil else {
                // Gradle usually sets targetSdk, so an unknown level is most likely ≥ 31 (Play requires newer).
                return descriptor.finding(
                    "\(component.label) has an intent filter but no android:exported; that fails to install from targetSdk 31, and this manifest does not say its targetSdk (use --target-sdk)",
                    at: component.element.position, severity: .warning)
            }
            return descriptor.finding(
                "\(component.label) has an intent filter but no android:exported: the app does not install on Android 12+",
                at: component.element.position)
        }
    }
}
