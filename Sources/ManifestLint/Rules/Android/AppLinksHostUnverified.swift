import SignInProtocolCore

/// Android verifies an `autoVerify` filter host by host: each https host must serve an assetlinks.json that grants
/// `handle_all_urls` to this package, signed with a certificate it names, or the links open in the browser (and
/// a sign-in redirect with them). Checked when assetlinks files (`--assetlinks`) or certificates are given.
/// https://developer.android.com/training/app-links/verify-android-applinks
public struct AppLinksHostUnverified: AndroidManifestRule {
    public let descriptor = RuleDescriptor(
        id: "android-applinks-host-unverified",
        severity: .error,
        summary: "An autoVerify https host has no assetlinks.json naming this package and signing certificate.",
        hint: "Serve https://HOST/.well-known/assetlinks.json granting handle_all_urls to the package with its SHA-256 fingerprint, and give it with --assetlinks HOST=FILE.",
        reference: .androidAppLinksVerify)

    public init() {}

    public func check(_ manifest: AndroidManifest, context: LintContext) -> [Diagnosis] {
        guard !context.assetLinks.isEmpty, let package = manifest.packageName, !BuildTimeValue.isPlaceholder(package) else { return [] }
        let certificates = Set(context.signingCertificates.map { $0.uppercased() })
        var diagnoses = [Diagnosis]()
        var seen = Set<String>()
        for filter in manifest.intentFilters where filter.autoVerify?.value == "true" {
            guard filter.schemes.contains(where: { $0.value == "https" || $0.value == "http" }) else { continue }
            for host in filter.dataAttributes("host") where !BuildTimeValue.isPlaceholder(host.value) {
                // A wildcard host is verified against the domain without the "*." (Android 12+).
                let name = host.value.hasPrefix("*.") ? String(host.value.dropFirst(2)) : host.value
                guard seen.insert(name.asciiLowercased()).inserted else { continue }
                guard let document = context.assetLinks[name.asciiLowercased()] else {
                    diagnoses.append(
                        descriptor.finding("no assetlinks.json was given for autoVerify host \(name) (--assetlinks \(name)=FILE)", at: host.valuePosition))
                    continue
                }
                let statements = document.verifies(package: package)
                if statements.isEmpty {
                    diagnoses.append(
                        descriptor.finding("the assetlinks.json of \(name) grants \(AssetLinksDocument.handleAllURLs) to no android_app \(package)", at: host.valuePosition))
                } else if !certificates.isEmpty,
                    !statements.flatMap(\.fingerprints).contains(where: { certificates.contains($0.value.uppercased()) })
                {
                    diagnoses.append(
                        descriptor.finding("the assetlinks.json of \(name) names \(package) but none of the given signing certificates", at: host.valuePosition))
                }
            }
        }
        return diagnoses
    }
}
