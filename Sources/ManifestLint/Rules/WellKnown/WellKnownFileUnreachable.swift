/// The platforms fetch association files over https with a valid certificate; a host that cannot be reached, or
/// whose certificate does not verify, verifies no link (Apple: supporting associated domains; Android: verify App Links).
public struct WellKnownFileUnreachable: WellKnownResponseRule {
    public let descriptor = RuleDescriptor(
        id: "well-known-unreachable",
        severity: .error,
        summary: "The association file could not be fetched over https (connection, certificate or timeout).",
        hint: "Serve the file over https with a certificate that chains to a public root, reachable from the internet.",
        reference: .appleAssociatedDomains)

    public init() {}

    public func check(_ response: WellKnownResponse, context: LintContext) -> [Diagnosis] {
        guard case .failed(let reason) = response.outcome else { return [] }
        return [descriptor.finding("GET \(response.url) failed: \(reason)", at: .startOfFile)]
    }
}
