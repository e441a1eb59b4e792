/// url_schemes.json (and the challenge's UrlSchemes value) must be JSON (RFC 8259) before anything else is checked.
public struct URLSchemesJSONSyntax: LintRule {
    public let descriptor = RuleDescriptor(
        id: "url-schemes-json-syntax",
        severity: .error,
        summary: "url_schemes.json is not valid JSON, or is over the 64 KiB limit.",
        hint: "Fix the JSON at the position given (no comments, no trailing commas, double-quoted strings).",
        reference: .rfc8259)

    public init() {}

    public func diagnosis(_ error: JSONSyntaxError) -> Diagnosis {
        descriptor.finding(error.message, at: error.position)
    }
}
