/// iOS applies a detail's components in order and the first match decides; an https redirect URI whose path an
/// earlier `exclude` component matches never reaches the app, so sign-in stays in the browser.
public struct AppSiteAssociationRedirectExcluded: AppSiteAssociationRule {
    public let descriptor = RuleDescriptor(
        id: "aasa-redirect-excluded",
        severity: .error,
        summary: "An https redirect URI's path is excluded by an earlier components entry, so iOS never opens the app.",
        hint: "Move the component that matches the redirect path above the exclude, or narrow the exclude.",
        reference: .appleApplinksComponents)

    public init() {}

    public func check(_ document: AppSiteAssociationDocument, context: LintContext) -> [Diagnosis] {
        let redirects = context.redirectURIs.compactMap(RedirectURI.init).filter { $0.scheme == "https" }
        var diagnoses = [Diagnosis]()
        for redirect in redirects {
            for detail in document.details {
                guard let decision = detail.decision(forPath: redirect.path.isEmpty ? "/" : redirect.path), decision.excluded
                else { continue }
                diagnoses.append(
                    descriptor.finding(
                        "redirect URI \(redirect.text) is excluded here for \(detail.appIDs.map(\.value).joined(separator: ", ")): iOS opens it in the browser",
                        at: decision.position))
            }
        }
        return diagnoses
    }
}
