/// iOS applies a detail's components in order and the first match decides; an https redirect URI whose URL an
/// earlier `exclude` component matches never reaches the app, so sign-in stays in the browser. Checked for every
/// https URL the run claims for this file's host (`--redirect-uri`, the config, Android App Link filters).
public struct AppSiteAssociationRedirectExcluded: AppSiteAssociationRule {
    public let descriptor = RuleDescriptor(
        id: "aasa-redirect-excluded",
        severity: .error,
        summary: "An https redirect URI's path is excluded by an earlier components entry, so iOS never opens the app.",
        hint: "Move the component that matches the redirect path above the exclude, or narrow the exclude.",
        reference: .appleApplinksComponents)

    public init() {}

    public func check(_ document: AppSiteAssociationDocument, context: LintContext) -> [Diagnosis] {
        var diagnoses = [Diagnosis]()
        for claim in context.claimsForAssociationHost {
            for detail in document.details(forAppOf: context) {
                guard let decision = detail.decision(for: claim.uri), decision.excluded else { continue }
                diagnoses.append(
                    descriptor.finding(
                        "redirect URI \(claim.text) (\(claim.origin)) is excluded here for \(detail.appIDs.map(\.value).joined(separator: ", ")): iOS opens it in the browser",
                        at: decision.position))
            }
        }
        return diagnoses
    }
}
