struct BlankTokenCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "unauthorized.blank-token", group: .unauthorized, level: .must, source: .rfc(6750, "§3.1", "Error Codes"),
        summary: "'Authorization: Bearer' with an empty token gets 401 with the challenge")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        ChallengeAnswer.judge(await session.bootstrap(authorization: "Bearer ", as: .attacker), what: "blank token", in: session)
    }
}
