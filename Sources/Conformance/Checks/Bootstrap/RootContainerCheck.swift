/// `GET_ROOT_CONTAINER` adds RootContainerInfo, so Office can browse without another round trip. A host may answer
/// it as a plain bootstrap, hence SHOULD.
struct RootContainerCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "bootstrap.root-container", group: .bootstrap, level: .should, source: .bootstrapper("GET_ROOT_CONTAINER"),
        summary: "POST with X-WOPI-EcosystemOperation GET_ROOT_CONTAINER adds RootContainerInfo")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let authorization = try await session.officeAuthorization().orSkip()
        switch BootstrapAnswer.decode(await session.bootstrap(authorization: authorization, operation: "GET_ROOT_CONTAINER")) {
        case .failure(let failure): return .fail(failure.reason)
        case .success(let answer):
            guard let root = answer.rootContainerInfo else { return .fail("no RootContainerInfo") }
            return .pass("RootContainerInfo \"\(root.containerInfo.name)\"")
        }
    }
}
