/// Office starts the partner's auth activity by explicit component (package + activity name from UrlSchemes);
/// if the manifest does not declare it, the start fails and Office silently falls back to the WebView.
public struct AuthActivityMissing: AndroidManifestRule {
    public let descriptor = RuleDescriptor(
        id: "android-auth-activity-missing",
        severity: .error,
        summary: "An Android entry of UrlSchemes names an auth activity this manifest does not declare.",
        hint: "Declare an <activity> (or <activity-alias>) with exactly that android:name, or correct the UrlSchemes entry.",
        reference: .officeAppToApp)

    public init() {}

    public func check(_ manifest: AndroidManifest, context: LintContext) -> [Diagnosis] {
        manifest.appEntries(in: context.urlSchemes).compactMap { entry in
            guard manifest.component(for: entry) == nil else { return nil }
            let name = AndroidManifest.qualified(entry.authActivity, package: entry.packageName)
            return descriptor.finding(
                "\(context.urlSchemesSource) names auth activity \(name) of \(entry.packageName), which this manifest does not declare",
                at: manifest.headPosition)
        }
    }
}
