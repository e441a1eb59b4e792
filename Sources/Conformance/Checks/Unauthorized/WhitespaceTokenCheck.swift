/// RFC 6750 §2.1: `b64token` is one or more characters, so `Bearer` followed by only spaces and a tab is no token:
/// the challenge, never a 500 from a parser that assumed one.
struct WhitespaceTokenCheck: ConformanceCheck {
    static let id = "unauthorized.whitespace-token"
    static let group = CheckGroup.unauthorized
    static let level = CheckLevel.must
    static let source = SourceCitation.rfc(6750, "§2.1", "Authorization Request Header Field")
    static let summary = "'Authorization: Bearer' followed by only spaces and a tab gets 401 with the challenge"

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        ChallengeAnswer.judge(
            await session.resource(authorizations: ["Bearer  \t  "], as: .attacker), what: "whitespace-only token",
            in: session)
    }
}
