import SignInProtocol

/// A partner app's sign-in with its public client, and the redemption of its code without a secret.
enum PartnerApp {
    struct Code: Sendable {
        var code: String
        var verifier: PKCE.Verifier
    }

    /// Signs in with an S256 challenge (or none) and returns the code, or the redirect's outcome when no code came.
    static func signIn(in session: ConformanceSession, withPKCE: Bool) async -> Result<(SignInOutcome, PKCE.Verifier), StepFailure> {
        guard let client = session.options.publicClient else {
            return .failure(StepFailure("needs --public-client-id and --public-redirect-uri"))
        }
        let endpoints: Endpoints
        switch await session.endpoints() {
        case .success(let found): endpoints = found
        case .failure(let failure): return .failure(failure)
        }
        let verifier = PKCE.Verifier.random()
        let request = AuthorizeRequestBuilder.publicClient(
            authorizationURI: endpoints.authorization, clientID: client.id, redirectURI: client.redirectURI,
            pkceChallenge: withPKCE ? verifier.challenge(method: .s256).value : nil)
        return await SignInDriver(session: session, party: .partnerApp).signIn(request, redirectURI: client.redirectURI)
            .map { ($0, verifier) }
    }

    static func code(in session: ConformanceSession) async -> Result<Code, StepFailure> {
        await signIn(in: session, withPKCE: true).flatMap { pair in
            let (outcome, verifier) = pair
            guard let code = outcome.code else {
                return .failure(StepFailure("the public client's sign-in gave no code (\(outcome.parameters["error"] ?? "no error"))"))
            }
            return .success(Code(code: code, verifier: verifier))
        }
    }

    /// RFC 6749 §4.1.3 for a public client: `client_id` in the body, no secret; `verifier` nil leaves it out.
    static func redeem(_ code: String, verifier: String?, in session: ConformanceSession, as party: Party) async -> Result<TokenExchange, StepFailure> {
        guard let client = session.options.publicClient else { return .failure(StepFailure("needs --public-client-id")) }
        guard let endpoint = await session.endpoints().value?.token else {
            return .failure(StepFailure("no token endpoint (see challenge.endpoints)"))
        }
        var fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", client.redirectURI), ("client_id", client.id)]
        if let verifier { fields.append(("code_verifier", verifier)) }
        do {
            return .success(TokenExchange(response: try await session.http.send(.form(endpoint, fields), as: party)))
        } catch {
            return .failure(StepFailure("the token endpoint did not answer: \(error)"))
        }
    }
}
