import SignInProtocol

/// RFC 7636 §4.6, which draft §5.1 brings to the challenge endpoint: the code is bound to the request's
/// `code_challenge`, so another verifier is refused with `invalid_grant`.
struct FirstPartyPKCEBoundCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "firstparty.pkce-bound", group: .firstparty, level: .must, source: .rfc(7636, "§4.6", "Server Verifies code_verifier"),
        summary: "A code from the challenge endpoint redeemed with another code_verifier is refused (400 invalid_grant)")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try await FirstPartyApp.target(in: session)
        let verifier = PKCE.Verifier.random()
        let answer = try await FirstPartyApp.send(
            FirstPartyApp.initialFields(target, verifier: verifier, in: session) + FirstPartyApp.credentials(in: session),
            to: target, in: session)
        guard let code = answer.code else { return .skip("the challenge request answered \(answer.summary) (see firstparty.code)") }
        let tokens = try await FirstPartyApp.redeem(code, verifier: PKCE.Verifier.random().value, target: target, in: session, as: .attacker)
        return tokens.response.status == 400 && tokens.error == "invalid_grant"
            ? .pass("400 invalid_grant") : .fail("the wrong verifier answered \(tokens.summary)")
    }
}
