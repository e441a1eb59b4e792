/// Android compares `sha256_cert_fingerprints` as 32 upper-case, colon-separated hex bytes (what `keytool -list`
/// prints); lower case, missing colons or a SHA-1 fingerprint never match and verification fails.
public struct AssetLinksFingerprintFormat: AssetLinksRule {
    public let descriptor = RuleDescriptor(
        id: "assetlinks-fingerprint-format",
        severity: .error,
        summary: "A sha256_cert_fingerprints entry is not 32 upper-case hex bytes separated by colons.",
        hint: "Copy the SHA-256 line of `keytool -list -v` (or Play Console's app signing key): AA:BB:…, 32 bytes.",
        reference: .androidAssetLinks)

    public init() {}

    public func check(_ document: AssetLinksDocument, context: LintContext) -> [Diagnosis] {
        document.statements.flatMap(\.fingerprints).compactMap { value, position in
            guard !AssetLinksDocument.isFingerprint(value) else { return nil }
            let hint = AssetLinksDocument.isFingerprint(value.uppercased()) ? " (use upper case)" : ""
            return descriptor.finding("\"\(value)\" is not a SHA-256 fingerprint of 32 colon-separated upper-case hex bytes\(hint)", at: position)
        }
    }
}
