import SignInProtocol

/// A partner app's sign-in with its public client, and the redemption of its code without a secret.
enum PartnerApp {
    struct Code: Sendable {
        var code: String
        var verifier: PKCE.Verifier
    }

    /// Signs in with an S256 challenge (or none) and returns the code, or the redirect's outcome when no code came.
    static func signIn(
        in session: ConformanceSession, withPKCE: Bool, extra: [(String, String)] = []
    ) async -> Result<(SignInOutcome, PKCE.Verifier), StepFailure> {
        let verifier = PKCE.Verifier.random()
        return await signIn(in: session, challenge: withPKCE ? verifier.challenge(method: .s256).value : nil, extra: extra)
            .map { ($0, verifier) }
    }

    /// Signs in with exactly this challenge and method (nil: none) and any further parameters.
    static func signIn(
        in session: ConformanceSession, challenge: String?, method: PKCE.Method = .s256, extra: [(String, String)] = []
    ) async -> Result<SignInOutcome, StepFailure> {
        guard let client = session.options.publicClient else {
            return .failure(StepFailure("needs " + RequiredOption.publicClient.flags))
        }
        let endpoints: Endpoints
        switch await session.endpoints() {
        case .success(let found): endpoints = found
        case .failure(let failure): return .failure(failure)
        }
        let request = AuthorizeRequestBuilder.publicClient(
            authorizationURI: endpoints.authorization, clientID: client.id, redirectURI: client.redirectURI,
            pkceChallenge: challenge, method: method, extra: extra)
        return await SignInDriver(session: session, party: .partnerApp).signIn(request, redirectURI: client.redirectURI)
    }

    /// A code for an S256 challenge; `extra` adds parameters (a `scope`).
    static func code(in session: ConformanceSession, extra: [(String, String)] = []) async -> Result<Code, StepFailure> {
        await signIn(in: session, withPKCE: true, extra: extra).flatMap { pair in
            let (outcome, verifier) = pair
            return outcome.requireCode().map { Code(code: $0, verifier: verifier) }
        }
    }

    /// A code for exactly this challenge (any verifier string: the checks that break RFC 7636 §4.1 need bad ones).
    static func code(in session: ConformanceSession, challenge: String, method: PKCE.Method = .s256) async -> Result<String, StepFailure> {
        await signIn(in: session, challenge: challenge, method: method).flatMap { $0.requireCode() }
    }

    /// RFC 6749 §4.1.3 for a public client: `client_id` in the body, no secret; `verifier` nil leaves it out.
    /// `headers`: further request headers (a DPoP proof).
    static func redeem(
        _ code: String, verifier: String?, in session: ConformanceSession, as party: Party,
        headers: [(name: String, value: String)] = []
    ) async -> Result<TokenExchange, StepFailure> {
        guard let client = session.options.publicClient else { return .failure(StepFailure("needs " + RequiredOption.publicClient.flags)) }
        var fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", client.redirectURI)]
        if let verifier { fields.append(("code_verifier", verifier)) }
        return await tokenRequest(fields, in: session, as: party, headers: headers)
    }

    /// A token request as the public client (RFC 6749 §2.3: identified by `client_id`, no secret).
    static func tokenRequest(
        _ fields: [(String, String)], in session: ConformanceSession, as party: Party,
        headers: [(name: String, value: String)] = []
    ) async -> Result<TokenExchange, StepFailure> {
        guard let client = session.options.publicClient else { return .failure(StepFailure("needs " + RequiredOption.publicClient.flags)) }
        guard let endpoint = await session.endpoints().value?.token else {
            return .failure(StepFailure("no token endpoint (see challenge.endpoints)"))
        }
        do {
            let request = ConformanceHTTP.Request.form(endpoint, fields + [("client_id", client.id)], headers: headers)
            return .success(TokenExchange(response: try await session.http.send(request, as: party)))
        } catch {
            return .failure(StepFailure("the token endpoint did not answer: \(error)"))
        }
    }
}

extension SignInOutcome {
    /// The code, or why the redirect had none.
    func requireCode() -> Result<String, StepFailure> {
        guard let code, !code.isEmpty else {
            return .failure(StepFailure("the sign-in gave no code (\(parameters["error"].map { "error=" + $0 } ?? "no error"))"))
        }
        return .success(code)
    }
}
