import SignInProtocol

/// The ecosystem refuses a token it never handed out with 401 or 404, as the WOPI validator's
/// `ecosystem.GetRootContainerInvalidAccessToken` asks; CheckEcosystem is held to the same rule.
struct EcosystemInvalidTokenCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "ecosystem.invalid-token", group: .ecosystem, level: .must, source: .wopiValidator("Ecosystem group, ecosystem.GetRootContainerInvalidAccessToken"),
        summary: "CheckEcosystem and GetRootContainer with an altered access_token answer 401 or 404")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let ecosystem = try await session.servedEcosystem()
        let urls = [
            ("CheckEcosystem", EcosystemProbe.withInvalidToken(ecosystem.url)),
            ("GetRootContainer", EcosystemProbe.withInvalidToken(ecosystem.rootContainerPointerURL)),
        ]
        var answers = [String]()
        var accepted = [String]()
        for (operation, url) in urls {
            let status = try await session.ecosystemGet(url, as: .attacker).status
            answers.append("\(operation) \(status)")
            if status != 401 && status != 404 { accepted.append("\(operation) answered \(status)") }
        }
        return accepted.isEmpty
            ? .pass(answers.joined(separator: ", ")) : .fail("an altered token: " + accepted.joined(separator: "; "))
    }
}
