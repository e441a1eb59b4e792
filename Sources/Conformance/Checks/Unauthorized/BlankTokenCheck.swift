struct BlankTokenCheck: ConformanceCheck {
    static let id = "unauthorized.blank-token"
    static let group = CheckGroup.unauthorized
    static let level = CheckLevel.must
    static let source = SourceCitation.rfc(6750, "§3.1", "Error Codes")
    static let summary = "'Authorization: Bearer' with an empty token gets 401 with the challenge"

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        ChallengeAnswer.judge(await session.bootstrap(authorization: "Bearer ", as: .attacker), what: "blank token", in: session)
    }
}
