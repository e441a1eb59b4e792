struct MalformedTokenCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "unauthorized.malformed-token", group: .unauthorized, level: .must, source: .rfc(6750, "§3.1", "invalid_token"),
        summary: "A token that is not a token of the host (junk, wrong characters) gets 401 with the challenge, never 400 or 500")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        ChallengeAnswer.judge(
            await session.bootstrap(authorization: "Bearer not.a.token%%", as: .attacker), what: "malformed token", in: session)
    }
}
