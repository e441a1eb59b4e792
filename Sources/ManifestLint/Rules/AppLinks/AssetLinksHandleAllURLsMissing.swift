/// App Links verification needs a statement granting `delegate_permission/common.handle_all_urls` to an
/// `android_app` target; a file with only other relations (say `get_login_creds`) verifies nothing.
public struct AssetLinksHandleAllURLsMissing: AssetLinksRule {
    public let descriptor = RuleDescriptor(
        id: "assetlinks-handle-all-urls-missing",
        severity: .error,
        summary: "No assetlinks.json statement grants delegate_permission/common.handle_all_urls to an android_app.",
        hint: "Add a statement with relation [\"delegate_permission/common.handle_all_urls\"] and an android_app target.",
        reference: .androidAssetLinks)

    public init() {}

    public func check(_ document: AssetLinksDocument, context: LintContext) -> [Diagnosis] {
        guard document.root.items != nil else { return [] }
        let granting = document.statements.filter {
            $0.namespace == AssetLinksDocument.androidApp && $0.relations.contains(AssetLinksDocument.handleAllURLs)
        }
        guard granting.isEmpty else { return [] }
        return [descriptor.finding("no statement grants \(AssetLinksDocument.handleAllURLs) to an android_app target: no App Link verifies", at: document.root.position)]
    }
}
