/// `GET_NEW_ACCESS_TOKEN` for a file the host serves adds AccessTokenInfo for it.
struct NewAccessTokenCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "bootstrap.new-access-token", group: .bootstrap, level: .must, source: .bootstrapper("GET_NEW_ACCESS_TOKEN"),
        summary: "POST with X-WOPI-EcosystemOperation GET_NEW_ACCESS_TOKEN and a served X-WOPI-WopiSrc adds AccessTokenInfo")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let wopiSrc = try session.options.required(.wopiSrc)
        let authorization = try await session.officeAuthorization().orSkip()
        let result = await session.bootstrap(authorization: authorization, operation: "GET_NEW_ACCESS_TOKEN", wopiSrc: wopiSrc)
        switch BootstrapAnswer.decode(result) {
        case .failure(let failure): return .fail(failure.reason)
        case .success(let answer):
            guard let info = answer.accessTokenInfo, !info.accessToken.isEmpty else { return .fail("no AccessTokenInfo") }
            guard info.accessTokenExpiry > 0 else { return .fail("AccessTokenExpiry is not a time") }
            return .pass("AccessTokenInfo for the WopiSrc")
        }
    }
}
