/// assetlinks.json must be JSON (RFC 8259) of a sane size before anything else is checked; Android's verifier
/// rejects a file it cannot parse and no App Link of the host verifies.
public struct AssetLinksJSONSyntax: LintRule {
    public let descriptor = RuleDescriptor(
        id: "assetlinks-json-syntax",
        severity: .error,
        summary: "assetlinks.json is not valid JSON, or is over the 1 MiB limit.",
        hint: "Fix the JSON at the position given (no comments, no trailing commas, double-quoted strings).",
        reference: .androidAssetLinks)

    public init() {}

    public func diagnosis(_ error: JSONSyntaxError) -> Diagnosis { descriptor.finding(error.message, at: error.position) }
}
