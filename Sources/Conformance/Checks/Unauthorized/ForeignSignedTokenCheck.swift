/// A token signed by anyone but the host (RFC 7515 §5.2: verify the signature with the expected key).
struct ForeignSignedTokenCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "unauthorized.foreign-signed-token", group: .unauthorized, level: .must, source: .rfc(7515, "§5.2", "Message Signature or MAC Validation"),
        summary: "The host's token claims re-signed with a foreign key (or, for opaque tokens, a look-alike) get 401 with the challenge")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        guard let token = try await session.officeTokens().orSkip().accessToken else {
            return .skip("no access token was issued")
        }
        let forged = TokenForgery.foreignSigned(token) ?? TokenForgery.lookalike(token)
        return ChallengeAnswer.judge(
            await session.bootstrap(authorization: "Bearer " + forged, as: .attacker), what: "foreign-signed token", in: session)
    }
}
