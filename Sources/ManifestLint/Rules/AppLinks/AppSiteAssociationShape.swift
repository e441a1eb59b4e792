/// iOS reads `applinks.details` as a list of objects, each naming the app with `appIDs` (or the legacy `appID`) and
/// the URLs with `components` (iOS 13+) or the legacy `paths`; anything else is ignored without a word.
public struct AppSiteAssociationShape: AppSiteAssociationRule {
    public let descriptor = RuleDescriptor(
        id: "aasa-shape",
        severity: .error,
        summary: "apple-app-site-association has no applinks.details list of objects with appIDs and components.",
        hint: "Write {\"applinks\": {\"details\": [{\"appIDs\": [\"TEAMID.bundle\"], \"components\": [{\"/\": \"/path/*\"}]}]}}.",
        reference: .appleApplinksDetails)

    public init() {}

    public func check(_ document: AppSiteAssociationDocument, context: LintContext) -> [Diagnosis] {
        guard document.root.members != nil else {
            return [descriptor.finding("the top level is a \(document.root.typeName), not an object", at: document.root.position)]
        }
        guard let applinks = document.root.member("applinks") else {
            return [descriptor.finding("there is no \"applinks\" object: no Universal Link opens the app", at: document.root.position)]
        }
        guard let details = applinks.value.member("details")?.value.items else {
            return [descriptor.finding("\"applinks\" has no \"details\" list", at: applinks.value.position)]
        }
        var diagnoses = [Diagnosis]()
        for (index, detail) in details.enumerated() {
            guard detail.members != nil else {
                diagnoses.append(descriptor.finding("details[\(index)] is a \(detail.typeName), not an object", at: detail.position))
                continue
            }
            let ids = detail.member("appIDs")?.value
            if ids.map({ $0.items?.allSatisfy { $0.string != nil } != true }) == true {
                diagnoses.append(descriptor.finding("details[\(index)].appIDs is not a list of strings", at: ids!.position))
            }
            if ids == nil && detail.member("appID")?.value.string == nil {
                diagnoses.append(descriptor.finding("details[\(index)] names no app (appIDs or appID)", at: detail.position))
            }
            let components = detail.member("components")?.value
            if let components, components.items?.allSatisfy({ $0.members != nil }) != true {
                diagnoses.append(descriptor.finding("details[\(index)].components is not a list of objects", at: components.position))
            }
            if components == nil && detail.member("paths")?.value.items == nil {
                diagnoses.append(descriptor.finding("details[\(index)] has neither components nor paths: it matches no URL", at: detail.position))
            }
        }
        return diagnoses
    }
}
