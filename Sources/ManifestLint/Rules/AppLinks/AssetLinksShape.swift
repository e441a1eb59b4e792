/// Android reads assetlinks.json as a list of statements, each with a `relation` list of strings and a `target`
/// object; an `android_app` target names `package_name` and a non-empty `sha256_cert_fingerprints` list.
public struct AssetLinksShape: AssetLinksRule {
    public let descriptor = RuleDescriptor(
        id: "assetlinks-shape",
        severity: .error,
        summary: "assetlinks.json is not a list of statements with relation and target as Android reads them.",
        hint: "Write [{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"android_app\", \"package_name\": \"…\", \"sha256_cert_fingerprints\": [\"AA:…\"]}}].",
        reference: .androidAssetLinks)

    public init() {}

    public func check(_ document: AssetLinksDocument, context: LintContext) -> [Diagnosis] {
        guard let items = document.root.items else {
            return [descriptor.finding("the top level is a \(document.root.typeName), not a list of statements", at: document.root.position)]
        }
        var diagnoses = [Diagnosis]()
        for (index, item) in items.enumerated() {
            guard item.members != nil else {
                diagnoses.append(descriptor.finding("statement \(index) is a \(item.typeName), not an object", at: item.position))
                continue
            }
            let relation = item.member("relation")?.value
            if relation?.items.map({ $0.allSatisfy { $0.string != nil } }) != true {
                diagnoses.append(descriptor.finding("statement \(index) has no \"relation\" list of strings", at: relation?.position ?? item.position))
            }
            guard let target = item.member("target")?.value, target.members != nil else {
                diagnoses.append(descriptor.finding("statement \(index) has no \"target\" object", at: item.position))
                continue
            }
            guard let namespace = target.member("namespace")?.value.string else {
                diagnoses.append(descriptor.finding("the target of statement \(index) has no \"namespace\" string", at: target.position))
                continue
            }
            guard namespace == AssetLinksDocument.androidApp else { continue }
            if target.member("package_name")?.value.string?.isEmpty != false {
                diagnoses.append(descriptor.finding("the android_app target of statement \(index) has no \"package_name\"", at: target.position))
            }
            let prints = target.member("sha256_cert_fingerprints")?.value
            if prints?.items?.isEmpty != false {
                diagnoses.append(
                    descriptor.finding(
                        "the android_app target of statement \(index) has no \"sha256_cert_fingerprints\" list", at: prints?.position ?? target.position))
            }
        }
        return diagnoses
    }
}
