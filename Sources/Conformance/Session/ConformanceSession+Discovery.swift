import SignInProtocol

extension ConformanceSession {
    /// OpenID Provider metadata (OpenID Connect Discovery 1.0 §4): `<issuer>/.well-known/openid-configuration`, the
    /// issuer being `--issuer` or, behind a bootstrapper, the one found by following its challenge (`issuer()`).
    public func discovery() async -> Result<[String: JSONValue], StepFailure> {
        await followedIssuer().map(\.document)
    }

    /// The issuer whose metadata the checks read: `--issuer`, or behind a bootstrapper the first of
    /// `IssuerCandidates` whose discovery document names the challenge's `authorization_uri` and itself as
    /// `issuer` (OpenID Connect Discovery 1.0 §4.3); when none does, the endpoint's origin, as before.
    public func issuer() async -> Result<String, StepFailure> {
        if let given = options.issuer { return .success(given.hasSuffix("/") ? String(given.dropLast()) : given) }
        return await followedIssuer().map(\.issuer)
    }

    private struct FollowedIssuer: Sendable {
        var issuer: String
        var document: [String: JSONValue]
    }

    private func followedIssuer() async -> Result<FollowedIssuer, StepFailure> {
        await remembered("discovery") { await self.followIssuer() }
    }

    private func followIssuer() async -> Result<FollowedIssuer, StepFailure> {
        if let given = options.issuer {
            let issuer = given.hasSuffix("/") ? String(given.dropLast()) : given
            return await fetchDiscovery(issuer: issuer).map { FollowedIssuer(issuer: issuer, document: $0) }
        }
        let authorization: String
        switch await endpoints() {
        case .failure(let failure): return .failure(failure)
        case .success(let found): authorization = found.authorization
        }
        let candidates = IssuerCandidates(authorizationEndpoint: authorization).issuers
        guard let origin = candidates.first else { return .failure(StepFailure("no origin")) }
        var atOrigin: Result<[String: JSONValue], StepFailure>?
        for candidate in candidates {
            let fetched = await fetchDiscovery(issuer: candidate)
            if candidate == origin { atOrigin = fetched }
            guard case .success(let document) = fetched else { continue }
            if document["authorization_endpoint"]?.stringValue == authorization, document["issuer"]?.stringValue == candidate {
                return .success(FollowedIssuer(issuer: candidate, document: document))
            }
        }
        // No candidate describes the endpoint: the origin's answer, which the metadata checks then judge.
        return (atOrigin ?? .failure(StepFailure("no discovery document"))).map { FollowedIssuer(issuer: origin, document: $0) }
    }

    private func fetchDiscovery(issuer: String) async -> Result<[String: JSONValue], StepFailure> {
        let url = issuer + "/.well-known/openid-configuration"
        do {
            let response = try await http.send(.init(url: url), as: .office)
            guard response.status == 200 else { return .failure(StepFailure("\(url) answered \(response.status)")) }
            guard let object = JSONObject.parse(response.body) else { return .failure(StepFailure("\(url) is not a JSON object")) }
            return .success(object)
        } catch {
            return .failure(StepFailure("\(url) did not answer: \(error)"))
        }
    }

    /// For `--issuer`: the authorization and token endpoints discovery names.
    func discoveredEndpoints() async -> Result<Endpoints, StepFailure> {
        await discovery().flatMap { metadata in
            guard let authorization = metadata["authorization_endpoint"]?.stringValue,
                let token = metadata["token_endpoint"]?.stringValue
            else { return .failure(StepFailure("discovery names no authorization_endpoint and token_endpoint")) }
            for (name, value) in [("authorization_endpoint", authorization), ("token_endpoint", token)] {
                if let problem = endpointProblem(value) { return .failure(StepFailure("\(name): \(problem)")) }
            }
            return .success(Endpoints(authorization: authorization, token: token))
        }
    }

    /// Where the unauthorized checks present tokens: the bootstrapper, or discovery's `userinfo_endpoint` (a protected
    /// resource every OpenID provider has, OpenID Connect Core 1.0 §5.3).
    func protectedResourceURL() async -> Result<String, StepFailure> {
        if let bootstrapURL = options.bootstrapURL { return .success(bootstrapURL) }
        return await discovery().flatMap { metadata in
            guard let userinfo = metadata["userinfo_endpoint"]?.stringValue else {
                return .failure(StepFailure("no bootstrapper and no userinfo_endpoint to present tokens to"))
            }
            return .success(userinfo)
        }
    }
}
