/// Android's verifier requires `Content-Type: application/json` for assetlinks.json (Android: configure website
/// associations); Apple's documentation asks for JSON too but its CDN is known to accept others, so a warning there.
public struct WellKnownFileContentType: WellKnownResponseRule {
    public let descriptor = RuleDescriptor(
        id: "well-known-content-type",
        severity: .error,
        summary: "The association file is not served as application/json.",
        hint: "Configure the web server to send Content-Type: application/json for /.well-known/assetlinks.json and apple-app-site-association.",
        reference: .androidAssetLinks)

    public init() {}

    public func check(_ response: WellKnownResponse, context: LintContext) -> [Diagnosis] {
        guard response.servedBody != nil, response.mediaType != "application/json" else { return [] }
        let seen = response.mediaType.map { "as \($0)" } ?? "without a Content-Type"
        let severity: Severity = response.kind == .assetLinks ? .error : .warning
        return [descriptor.finding("\(response.url) is served \(seen), not application/json", at: .startOfFile, severity: severity)]
    }
}
