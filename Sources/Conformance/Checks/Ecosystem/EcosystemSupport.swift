import Foundation
import SignInProtocol

/// The bootstrap's `EcosystemUrl` and the host's answer to it, read once per run: the three ecosystem checks ask the
/// same URL (Microsoft's "CheckEcosystem" and "GetRootContainer (ecosystem)" pages).
struct EcosystemProbe: Sendable {
    /// `EcosystemUrl` as the bootstrap gave it, its WOPI access token in the query.
    var url: String
    /// `GET` of it with nothing added: CheckEcosystem.
    var answer: ObservedResponse

    /// `<EcosystemUrl's path>/root_container_pointer` with its query, as the WOPI validator's GetRootContainer
    /// request builds it (`PathOverride` appended to the ecosystem URL's path).
    var rootContainerPointerURL: String { Self.appendingPath("/root_container_pointer", to: url) }

    /// `url` with its `access_token` changed in the middle: a token of the same shape the host never handed out.
    static func withInvalidToken(_ url: String) -> String {
        guard var parts = URLComponents(string: url), var items = parts.queryItems,
            let index = items.firstIndex(where: { $0.name == "access_token" }), let token = items[index].value, !token.isEmpty
        else { return url }
        var characters = Array(token)
        let middle = characters.count / 2
        characters[middle] = characters[middle] == "A" ? "B" : "A"
        items[index].value = String(characters)
        parts.queryItems = items
        return parts.string ?? url
    }

    static func appendingPath(_ path: String, to url: String) -> String {
        guard var parts = URLComponents(string: url) else { return url }
        let base = parts.percentEncodedPath.hasSuffix("/") ? String(parts.percentEncodedPath.dropLast()) : parts.percentEncodedPath
        parts.percentEncodedPath = base + path
        return parts.string ?? url
    }

    /// True when an absolute http(s) URL carries a non-empty `access_token` query parameter (the validator's
    /// `MustIncludeAccessToken`).
    static func carriesAccessToken(_ url: String) -> Bool {
        guard let parts = URLComponents(string: url), parts.scheme != nil, parts.host?.isEmpty == false else { return false }
        return parts.queryItems?.contains { $0.name == "access_token" && !($0.value ?? "").isEmpty } ?? false
    }
}

extension ConformanceSession {
    /// The ecosystem when the host serves it; a skip when it does not (no bootstrap answer, or `EcosystemUrl`
    /// answered 404 or 501: the ecosystem is another server's, or not implemented).
    func servedEcosystem() async throws(CheckSkipped) -> EcosystemProbe {
        let probe: Result<EcosystemProbe, StepFailure> = await remembered("ecosystem") { await self.probeEcosystem() }
        let found = try probe.orSkip()
        guard ![404, 501].contains(found.answer.status) else {
            throw CheckSkipped("the host does not serve its EcosystemUrl (\(found.answer.status))")
        }
        return found
    }

    private func probeEcosystem() async -> Result<EcosystemProbe, StepFailure> {
        let authorization: String
        switch await officeAuthorization() {
        case .success(let value): authorization = value
        case .failure(let failure): return .failure(failure)
        }
        let bootstrap: BootstrapResponse
        switch BootstrapAnswer.decode(await self.bootstrap(authorization: authorization)) {
        case .success(let answer): bootstrap = answer
        case .failure(let failure): return .failure(StepFailure("no bootstrap answer (\(failure.reason))"))
        }
        let url = bootstrap.bootstrap.ecosystemURL
        if let problem = endpointProblem(url) { return .failure(StepFailure("EcosystemUrl \(url): \(problem)")) }
        do {
            return .success(EcosystemProbe(url: url, answer: try await http.send(.init(url: url), as: .office)))
        } catch {
            return .failure(StepFailure("the EcosystemUrl did not answer: \(error)"))
        }
    }

    /// `GET url` as Office, or a skip naming the URL that did not answer.
    func ecosystemGet(_ url: String, as party: Party = .office) async throws(CheckSkipped) -> ObservedResponse {
        do {
            return try await http.send(.init(url: url), as: party)
        } catch {
            throw CheckSkipped("\(url) did not answer: \(error)")
        }
    }
}
