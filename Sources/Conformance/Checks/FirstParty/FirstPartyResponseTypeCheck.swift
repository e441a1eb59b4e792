import SignInProtocol

/// Draft §5.1: `response_type` is REQUIRED and MUST be `code` (RFC 6749 §3.1.1); a request without it gets
/// `invalid_request`, never a code.
struct FirstPartyResponseTypeCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "firstparty.response-type", group: .firstparty, level: .must, source: FirstPartyApp.draft("§5.1", "Authorization Challenge Request"),
        summary: "A challenge request without response_type=code is refused with invalid_request")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try await FirstPartyApp.target(in: session)
        let fields = FirstPartyApp.initialFields(target, verifier: .random(), in: session).filter { $0.0 != "response_type" }
        let answer = try await FirstPartyApp.send(fields + FirstPartyApp.credentials(in: session), to: target, in: session)
        if answer.code != nil { return .fail("a request without response_type got a code") }
        return answer.response.status == 400 && answer.error == "invalid_request"
            ? .pass("400 invalid_request") : .fail("answered \(answer.summary), not 400 invalid_request")
    }
}
