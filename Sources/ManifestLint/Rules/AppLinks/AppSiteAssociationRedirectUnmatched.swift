/// iOS opens a Universal Link in the app only when a components entry (or legacy path) of the app's detail
/// matches it; an https redirect URI no entry matches stays in the browser, as an excluded one does. Checked for
/// every https URL the run claims for this file's host.
public struct AppSiteAssociationRedirectUnmatched: AppSiteAssociationRule {
    public let descriptor = RuleDescriptor(
        id: "aasa-redirect-unmatched",
        severity: .error,
        summary: "No components entry of the app's applinks detail matches an https redirect URI, so iOS never opens the app.",
        hint: "Add a component for the redirect path (for example {\"/\": \"/oauth2/callback\"}) to the app's detail.",
        reference: .appleApplinksComponents)

    public init() {}

    public func check(_ document: AppSiteAssociationDocument, context: LintContext) -> [Diagnosis] {
        let details = document.details(forAppOf: context)
        guard !details.isEmpty else { return [] }  // no detail for the app: ios-applinks-domain-unassociated says so
        return context.claimsForAssociationHost.compactMap { claim in
            // Excluded ones are aasa-redirect-excluded's; one detail that opens it is enough.
            guard details.allSatisfy({ $0.decision(for: claim.uri) == nil }) else { return nil }
            let apps = details.flatMap { $0.appIDs.map(\.value) }.joined(separator: ", ")
            return descriptor.finding(
                "redirect URI \(claim.text) (\(claim.origin)) matches no components entry for \(apps): iOS opens it in the browser",
                at: details[0].node.position)
        }
    }
}
