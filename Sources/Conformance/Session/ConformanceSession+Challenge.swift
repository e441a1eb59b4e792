import SignInProtocol

extension ConformanceSession {
    /// The challenges of the `401` under the general RFC 9110 grammar, so one broken Office rule fails one check
    /// and not all of them.
    public func generalChallenges() async -> Result<[AuthenticationChallenge], StepFailure> {
        await challengeHeaderValues().flatMap { values in
            do {
                return .success(try AuthenticationChallenge.parse(headerValues: values))
            } catch {
                return .failure(StepFailure("WWW-Authenticate does not parse: \(error)"))
            }
        }
    }

    /// The first `Bearer` challenge.
    public func bearerChallenge() async -> Result<AuthenticationChallenge, StepFailure> {
        await generalChallenges().flatMap { challenges in
            guard let bearer = challenges.first(where: { $0.hasScheme("Bearer") }) else {
                return .failure(StepFailure("no Bearer challenge"))
            }
            return .success(bearer)
        }
    }
}

/// Where Office signs in and redeems codes, as the challenge names them.
public struct Endpoints: Sendable, Hashable {
    public var authorization: String
    public var token: String
}

extension ConformanceSession {
    /// The two endpoints of the Bearer challenge (or of discovery, for a host named by `--issuer`), read without the
    /// other Office rules, so that a bad `providerId` or `UrlSchemes` fails its own check and does not skip the flow
    /// behind it. An endpoint `challenge.endpoints` fails is never called: every check behind it skips at once.
    public func endpoints() async -> Result<Endpoints, StepFailure> {
        guard options.bootstrapURL != nil else { return await discoveredEndpoints() }
        return await bearerChallenge().flatMap { bearer in
            guard let authorization = bearer[parameter: BootstrapChallenge.ParameterName.authorizationURI],
                let token = bearer[parameter: BootstrapChallenge.ParameterName.tokenIssuanceURI],
                URLParts.origin(authorization) != nil, URLParts.origin(token) != nil
            else { return .failure(StepFailure("the challenge has no absolute authorization_uri and tokenIssuance_uri")) }
            for (name, value) in [("authorization_uri", authorization), ("tokenIssuance_uri", token)] {
                if let problem = endpointProblem(value) {
                    return .failure(StepFailure("\(name) failed challenge.endpoints (\(problem))"))
                }
            }
            return .success(Endpoints(authorization: authorization, token: token))
        }
    }

    /// Why the suite may not call `uri` as an OAuth endpoint (RFC 6749 §3.1, §3.2: absolute, TLS), or nil.
    nonisolated func endpointProblem(_ uri: String) -> String? {
        if let problem = EndpointURIRule.problem(with: uri) { return "\(problem)" }
        if URLParts.isLoopbackHTTP(uri), !options.allowLoopbackHTTP {
            return "http (allowed on loopback only with --insecure-http-loopback)"
        }
        return nil
    }
}
