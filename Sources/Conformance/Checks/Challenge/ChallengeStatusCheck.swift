/// Office's first request carries no token; the bootstrapper answers it with 401 and the challenge.
struct ChallengeStatusCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "challenge.status-401", group: .challenge, level: .must, source: .bootstrapper("the bootstrapper without an access token"),
        summary: "GET on the bootstrap URL without a token answers 401 with a WWW-Authenticate header")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        switch await session.challengeHeaderValues() {
        case .success(let values): .pass("401 with \(values.count) WWW-Authenticate line(s)")
        case .failure(let failure): .fail(failure.reason)
        }
    }
}
