/// With Office's token the bootstrapper answers the Bootstrap JSON (EcosystemUrl, UserId, SignInName).
struct AuthenticatedBootstrapCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "bootstrap.authenticated", group: .bootstrap, level: .must, source: .bootstrapper("the response"),
        summary: "GET with Office's token answers 200 application/json with Bootstrap (EcosystemUrl, UserId, SignInName)")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let authorization = try await session.officeAuthorization().orSkip()
        switch BootstrapAnswer.decode(await session.bootstrap(authorization: authorization)) {
        case .failure(let failure): return .fail(failure.reason)
        case .success(let answer): return .pass("Bootstrap for \(answer.bootstrap.signInName)")
        }
    }
}
