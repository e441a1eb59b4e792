/// apple-app-site-association must be JSON and at most 128 KB uncompressed, or iOS ignores it and no Universal
/// Link of the domain opens the app.
public struct AppSiteAssociationJSONSyntax: LintRule {
    public let descriptor = RuleDescriptor(
        id: "aasa-json-syntax",
        severity: .error,
        summary: "apple-app-site-association is not valid JSON, or is over Apple's 128 KB limit.",
        hint: "Fix the JSON at the position given and keep the file under 128 KB.",
        reference: .appleAssociatedDomains)

    public init() {}

    public func diagnosis(_ error: JSONSyntaxError) -> Diagnosis { descriptor.finding(error.message, at: error.position) }
}
