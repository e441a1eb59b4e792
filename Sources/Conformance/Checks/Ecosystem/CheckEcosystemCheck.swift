import SignInProtocol

/// CheckEcosystem at the bootstrap's `EcosystemUrl` answers JSON with `SupportsContainers: true`: Office for iOS and
/// Android needs the ecosystem and containers, and the WOPI validator's `ecosystem.CheckEcosystem` requires it.
struct CheckEcosystemCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "ecosystem.check-ecosystem", group: .ecosystem, level: .must, source: .wopiValidator("Ecosystem group, ecosystem.CheckEcosystem"),
        summary: "GET EcosystemUrl (CheckEcosystem) answers 200 JSON with SupportsContainers true")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let answer = try await session.servedEcosystem().answer
        guard answer.status == 200 else { return .fail("expected 200, got \(answer.status)") }
        guard let json = JSONObject.parse(answer.body) else { return .fail("the body is not a JSON object") }
        guard let supports = json["SupportsContainers"] else { return .fail("no SupportsContainers") }
        guard supports == .bool(true) else { return .fail("SupportsContainers is \(supports), not true") }
        return .pass("SupportsContainers true")
    }
}
