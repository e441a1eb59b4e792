/// RFC 7636 §4.6: a code bound to a challenge is redeemed only with the verifier; without it the challenge binds nothing.
struct PKCEVerifierRequiredCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "pkce.verifier-required", group: .pkce, level: .must, source: .rfc(7636, "§4.6", "Server Verifies code_verifier"),
        summary: "The public client's code issued with code_challenge and redeemed without code_verifier is refused")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try session.options.required(.publicClient)
        let code = try await PartnerApp.code(in: session).orSkip()
        return TokenRefusal.judge(
            await PartnerApp.redeem(code.code, verifier: nil, in: session, as: .attacker), what: "the redemption without verifier")
    }
}
