/// RFC 6749 §4.1.2: on a reused code the server "SHOULD revoke (when possible) all tokens previously issued based on
/// that authorization code".
struct CodeReuseRevokesCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "code.reuse-revokes", group: .code, level: .should, source: .rfc(6749, "§4.1.2", "Authorization Response"),
        summary: "After a code is reused, the access token of its first redemption is refused by the bootstrapper")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let reuse = try await CodeReuse.run(in: session).orSkip()
        guard reuse.second.response.status != 200 else { return .skip("the reuse was not refused (see code.reuse-refused)") }
        guard let token = reuse.first.accessToken else { return .skip("the first redemption gave no access token") }
        switch await session.bootstrap(authorization: "Bearer " + token) {
        case .failure(let failure): return .fail(failure.reason)
        case .success(let response):
            return response.status == 401 ? .pass("the first access token is revoked") : .fail("the first access token still answers \(response.status)")
        }
    }
}
