/// An ecosystem operation without a token is still a request without credentials.
struct MissingTokenCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "unauthorized.missing-token", group: .unauthorized, level: .must, source: .rfc(6750, "§3", "The WWW-Authenticate Response Header Field"),
        summary: "POST with X-WOPI-EcosystemOperation and no Authorization gets 401 with the challenge")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        ChallengeAnswer.judge(
            await session.bootstrap(authorization: nil, operation: "GET_ROOT_CONTAINER", as: .attacker),
            what: session.options.bootstrapURL == nil ? "no token" : "no token on GET_ROOT_CONTAINER", in: session,
            lacksCredentials: true)
    }
}
