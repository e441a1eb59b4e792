/// Office treats the version code in a UrlSchemes entry as the first version that supports app-to-app sign-in
/// (Microsoft's app-to-app docs, "that Version and above"); a build below it is never started for sign-in.
public struct VersionCodeBelowMinimum: AndroidManifestRule {
    public let descriptor = RuleDescriptor(
        id: "android-version-code-below-minimum",
        severity: .error,
        summary: "The manifest's android:versionCode is below the minimum its UrlSchemes entry gives.",
        hint: "Raise android:versionCode, or lower the version code in the UrlSchemes entry to the first build that supports sign-in.",
        reference: .officeAppToApp)

    public init() {}

    public func check(_ manifest: AndroidManifest, context: LintContext) -> [Diagnosis] {
        guard let versionCode = manifest.versionCodeValue, let attribute = manifest.versionCode else { return [] }
        return manifest.appEntries(in: context.urlSchemes).compactMap { entry in
            guard versionCode < entry.minimumVersionCode else { return nil }
            return descriptor.finding(
                "android:versionCode \(versionCode) is below \(entry.minimumVersionCode), the minimum \(context.urlSchemesSource) gives for \(entry.packageName): Office will not offer app-to-app sign-in to this build",
                at: attribute.valuePosition)
        }
    }
}
