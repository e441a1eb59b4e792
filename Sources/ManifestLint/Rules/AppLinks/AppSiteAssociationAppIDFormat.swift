/// An app ID in apple-app-site-association is the team ID (ten upper-case letters or digits), a dot and the bundle
/// ID; a bare bundle ID or a lower-case team ID matches no app.
public struct AppSiteAssociationAppIDFormat: AppSiteAssociationRule {
    public let descriptor = RuleDescriptor(
        id: "aasa-app-id-format",
        severity: .error,
        summary: "An appIDs (or appID) entry is not TEAMID.bundle-id.",
        hint: "Write the team ID from the developer account, a dot, and the bundle ID: ABCDE12345.com.contoso.files.",
        reference: .appleApplinksDetails)

    public init() {}

    public func check(_ document: AppSiteAssociationDocument, context: LintContext) -> [Diagnosis] {
        document.details.flatMap(\.appIDs).compactMap { value, position in
            guard !AppSiteAssociationDocument.isAppID(value) else { return nil }
            return descriptor.finding("\"\(value)\" is not an app ID of the form TEAMID.bundle-id", at: position)
        }
    }
}
