/// An activity another app starts must be exported; without `android:exported` and without an intent filter an
/// activity is private, and `android:exported="false"` is private on every Android version.
public struct AuthActivityNotExported: AndroidManifestRule {
    public let descriptor = RuleDescriptor(
        id: "android-auth-activity-not-exported",
        severity: .error,
        summary: "The auth activity Office starts is not exported, so Office cannot start it.",
        hint: "Set android:exported=\"true\" on the auth activity.",
        reference: .androidActivityExported)

    public init() {}

    public func check(_ manifest: AndroidManifest, context: LintContext) -> [Diagnosis] {
        manifest.appEntries(in: context.urlSchemes).compactMap { entry in
            guard let component = manifest.component(for: entry) else { return nil }
            if let exported = component.exported, exported.value == "false" {
                return descriptor.finding(
                    "auth activity \(component.label) is android:exported=\"false\": Office cannot start it",
                    at: exported.valuePosition)
            }
            if component.exported == nil && component.intentFilters.isEmpty {
                return descriptor.finding(
                    "auth activity \(component.label) has neither android:exported nor an intent filter, so it is not exported",
                    at: component.element.position)
            }
            return nil
        }
    }
}
