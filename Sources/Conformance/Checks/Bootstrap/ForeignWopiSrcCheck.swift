/// A WopiSrc the host does not serve gets 404: a token for someone else's file must never be minted.
struct ForeignWopiSrcCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "bootstrap.foreign-wopi-src", group: .bootstrap, level: .must, source: .bootstrapper("GET_NEW_ACCESS_TOKEN: a WopiSrc the host does not recognize"),
        summary: "GET_NEW_ACCESS_TOKEN for a WopiSrc on another host answers 404")

    static let foreignWopiSrc = "https://wopi.invalid/wopi/files/conform-not-yours"

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let authorization = try await session.officeAuthorization().orSkip()
        let result = await session.bootstrap(
            authorization: authorization, operation: "GET_NEW_ACCESS_TOKEN", wopiSrc: Self.foreignWopiSrc, as: .attacker)
        switch result {
        case .failure(let failure): return .fail(failure.reason)
        case .success(let response):
            return response.status == 404 ? .pass("404") : .fail("expected 404, got \(response.status)")
        }
    }
}
