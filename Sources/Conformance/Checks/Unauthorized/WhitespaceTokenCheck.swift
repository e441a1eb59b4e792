/// RFC 6750 §2.1: `b64token` is one or more characters, so `Bearer` followed by only spaces and a tab is no token:
/// the challenge, never a 500 from a parser that assumed one.
struct WhitespaceTokenCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "unauthorized.whitespace-token", group: .unauthorized, level: .must, source: .rfc(6750, "§2.1", "Authorization Request Header Field"),
        summary: "'Authorization: Bearer' followed by only spaces and a tab gets 401 with the challenge")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        ChallengeAnswer.judge(
            await session.resource(authorizations: ["Bearer  \t  "], as: .attacker), what: "whitespace-only token",
            in: session)
    }
}
