/// What the fetch saw, so that a report shows each host's answer even when nothing is wrong with it.
public struct WellKnownFileServed: WellKnownResponseRule {
    public let descriptor = RuleDescriptor(
        id: "well-known-served",
        severity: .info,
        summary: "What the host answered for its association file.",
        hint: "Information only.",
        reference: .appleAssociatedDomains)

    public init() {}

    public func check(_ response: WellKnownResponse, context: LintContext) -> [Diagnosis] {
        guard case .answered(200, let contentType, _, let body, let truncated) = response.outcome else { return [] }
        let size = truncated ? "more than \(body.count - 1) bytes" : "\(body.count) bytes"
        return [descriptor.finding("GET \(response.url): 200, \(contentType ?? "no Content-Type"), \(size)", at: .startOfFile)]
    }
}
