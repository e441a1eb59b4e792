/// RFC 9126 §2.1: a push must not itself carry `request_uri`; a server that accepted one would let a request point
/// at another client's pushed request.
struct PARRequestURIParameterCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "par.no-request-uri", group: .par, level: .must, source: .rfc(9126, "§2.1", "Request"),
        summary: "A push that carries a request_uri parameter is refused with invalid_request")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try await PushedAuthorization.target(in: session)
        let fields = PushedAuthorization.officeFields(target, in: session).fields
            + [("request_uri", "urn:ietf:params:oauth:request_uri:conform-probe")]
        let pushed = try await PushedAuthorization.push(fields, to: target, in: session)
        guard pushed.requestURI == nil else { return .fail("a push carrying request_uri was accepted (201)") }
        return pushed.response.status == 400 && pushed.error == "invalid_request"
            ? .pass("refused: \(pushed.summary)")
            : .fail("answered \(pushed.summary), not 400 invalid_request")
    }
}
