/// A verifier reads the file only from a 200 answer. A 404 is reported as information (the host may serve only one
/// of the two files; the cross-checks say when a claimed host lacks its file); any other status is an error.
public struct WellKnownFileStatus: WellKnownResponseRule {
    public let descriptor = RuleDescriptor(
        id: "well-known-status",
        severity: .error,
        summary: "The host answers the association file with a status other than 200.",
        hint: "Serve the file with 200 to anonymous requests: no login, no bot protection in front of /.well-known/.",
        reference: .androidAppLinksTroubleshoot)

    public init() {}

    public func check(_ response: WellKnownResponse, context: LintContext) -> [Diagnosis] {
        guard case .answered(let status, _, _, _, _) = response.outcome, status != 200, !(300..<400).contains(status) else { return [] }
        if status == 404 {
            return [descriptor.finding("GET \(response.url) answered 404: this host serves no \(response.kind.rawValue)", at: .startOfFile, severity: .info)]
        }
        return [descriptor.finding("GET \(response.url) answered \(status); the platform reads the file only from a 200", at: .startOfFile)]
    }
}
