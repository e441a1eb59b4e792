import SignInProtocol

extension ConformanceSession {
    /// OpenID Provider metadata (OpenID Connect Discovery 1.0 §4): `<issuer>/.well-known/openid-configuration`, the
    /// issuer being `--issuer` or, behind a bootstrapper, the authorization endpoint's origin.
    public func discovery() async -> Result<[String: JSONValue], StepFailure> {
        await remembered("discovery") { await self.fetchDiscovery() }
    }

    private func fetchDiscovery() async -> Result<[String: JSONValue], StepFailure> {
        let issuer: String
        if let given = options.issuer {
            issuer = given.hasSuffix("/") ? String(given.dropLast()) : given
        } else {
            switch await endpoints() {
            case .failure(let failure): return .failure(failure)
            case .success(let found):
                guard let origin = URLParts.origin(found.authorization) else { return .failure(StepFailure("no origin")) }
                issuer = origin
            }
        }
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
