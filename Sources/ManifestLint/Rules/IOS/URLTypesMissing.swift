/// Office opens the partner app through a URL scheme the app registers in `CFBundleURLTypes`; without it iOS has
/// nothing to open and Office falls back to the WebView.
public struct URLTypesMissing: InfoPlistRule {
    public let descriptor = RuleDescriptor(
        id: "ios-url-types-missing",
        severity: .error,
        summary: "Info.plist has no CFBundleURLTypes, so the app registers no URL scheme Office can open.",
        hint: "Add CFBundleURLTypes with a dict holding CFBundleURLSchemes (an array of your schemes).",
        reference: .appleURLTypes)

    public init() {}

    public func check(_ plist: InfoPlist, context: LintContext) -> [Diagnosis] {
        // Without UrlSchemes listing iOS schemes nothing says Office should open this app (a tvOS app, a library).
        guard context.urlSchemes?.iOS?.isEmpty == false else { return [] }
        guard plist.entry(InfoPlist.Keys.urlTypes) == nil else { return [] }
        return [descriptor.finding("Info.plist has no CFBundleURLTypes", at: plist.headPosition)]
    }
}
