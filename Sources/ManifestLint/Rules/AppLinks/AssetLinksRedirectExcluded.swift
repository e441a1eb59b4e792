/// Android 15 applies an assetlinks.json statement's dynamic rules (`relation_extensions` →
/// `dynamic_app_link_components`) in order, the first match deciding, on top of the manifest's filters: a claimed
/// https URL that an `exclude` rule matches, or that no rule matches, opens in the browser.
public struct AssetLinksRedirectExcluded: AssetLinksRule {
    public let descriptor = RuleDescriptor(
        id: "assetlinks-redirect-excluded",
        severity: .error,
        summary: "A dynamic rule of assetlinks.json excludes (or no rule matches) an https URL the app claims, so Android 15+ opens it in the browser.",
        hint: "Put a rule matching the redirect path before the exclude in dynamic_app_link_components, or narrow the exclude.",
        reference: .androidAssetLinks)

    public init() {}

    public func check(_ document: AssetLinksDocument, context: LintContext) -> [Diagnosis] {
        var diagnoses = [Diagnosis]()
        for claim in context.claimsForAssociationHost {
            for statement in document.statements where !statement.dynamicComponents.isEmpty {
                guard statement.relations.contains(AssetLinksDocument.handleAllURLs), statement.namespace == AssetLinksDocument.androidApp,
                    claim.package == nil || claim.package == statement.packageName
                else { continue }
                let deciding = statement.dynamicComponents.lazy.map(URLComponentPattern.init).first { $0.matches(claim.uri) }
                if let deciding, !deciding.excludes { continue }
                let what = deciding == nil ? "matches no dynamic rule" : "is excluded by this dynamic rule"
                diagnoses.append(
                    descriptor.finding(
                        "\(claim.text) (\(claim.origin)) \(what) for \(statement.packageName ?? "the app"): Android 15+ opens it in the browser",
                        at: deciding?.node.position ?? statement.node.position))
            }
        }
        return diagnoses
    }
}
