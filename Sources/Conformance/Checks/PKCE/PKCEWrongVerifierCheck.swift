import SignInProtocol

/// RFC 7636 §4.6: a verifier that does not hash to the challenge is refused with invalid_grant.
struct PKCEWrongVerifierCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "pkce.wrong-verifier", group: .pkce, level: .must, source: .rfc(7636, "§4.6", "Server Verifies code_verifier"),
        summary: "The public client's code redeemed with another code_verifier is refused (400 invalid_grant)")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try session.options.required(.publicClient)
        let code = try await PartnerApp.code(in: session).orSkip()
        switch await PartnerApp.redeem(code.code, verifier: PKCE.Verifier.random().value, in: session, as: .attacker) {
        case .failure(let failure): return .fail(failure.reason)
        case .success(let exchange):
            return exchange.response.status == 400 && exchange.error == "invalid_grant"
                ? .pass("400 invalid_grant") : .fail("the wrong verifier answered \(exchange.summary)")
        }
    }
}
