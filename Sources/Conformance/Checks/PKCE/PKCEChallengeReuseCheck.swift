import SignInProtocol

/// RFC 7636 §4.6: the verifier is checked against the challenge stored with each code; a host that remembers a
/// challenge as "already verified" lets a second code with the same challenge go without the verifier.
struct PKCEChallengeReuseCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "pkce.challenge-reuse", group: .pkce, level: .must, source: .rfc(7636, "§4.6", "Server Verifies code_verifier"),
        summary: "Two codes issued with the same challenge: after the first is redeemed, the second still needs the verifier")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try session.options.required(.publicClient)
        let verifier = PKCE.Verifier.random()
        let challenge = verifier.challenge(method: .s256).value
        let first = try await PartnerApp.code(in: session, challenge: challenge).orSkip()
        let second = try await PartnerApp.code(in: session, challenge: challenge).orSkip()
        let redeemed = try await PartnerApp.redeem(first, verifier: verifier.value, in: session, as: .partnerApp).orSkip()
        guard redeemed.response.status == 200 else { return .skip("the first code did not redeem (\(redeemed.summary); see pkce.verified)") }
        return TokenRefusal.judge(
            await PartnerApp.redeem(second, verifier: PKCE.Verifier.random().value, in: session, as: .attacker),
            what: "the second code with another verifier")
    }
}
