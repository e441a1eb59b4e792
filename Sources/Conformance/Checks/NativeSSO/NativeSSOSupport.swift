import SignInProtocol

/// The nativesso group's shared steps (OpenID Connect Native SSO for Mobile Apps 1.0, draft 07): the first app signs
/// in with `openid device_sso` and keeps the ID token and `device_secret`; the second app of the same vendor trades
/// them at the token endpoint (RFC 8693 token exchange) for its own tokens.
enum NativeSSO {
    static let idTokenType = TokenRequest.TokenExchange.idTokenType
    static let deviceSecretType = TokenRequest.TokenExchange.deviceSecretType
    static let tokenExchange = TokenRequest.GrantType.tokenExchange

    static func spec(_ section: String, _ title: String) -> SourceCitation {
        SourceCitation(
            title: "OpenID Connect Native SSO for Mobile Apps 1.0 (draft 07) \(section) (\(title))",
            url: "https://openid.net/specs/openid-connect-native-sso-1_0.html")
    }

    /// The two apps, when the host advertises `device_sso`; or why the group cannot run.
    static func apps(in session: ConformanceSession) async throws(CheckSkipped) -> ConformanceOptions.NativeSSOApps {
        let apps = try session.options.required(.nativeSSOApps)
        guard let discovery = await session.discovery().value, case .array(let scopes) = discovery["scopes_supported"],
            scopes.contains(.string("device_sso"))
        else { throw CheckSkipped("discovery's scopes_supported has no device_sso: the host does not offer Native SSO") }
        return apps
    }

    /// The first app's sign-in, remembered per `key`: two keys give two sign-ins (two devices, or two sessions).
    static func firstAppSignIn(_ key: String = "native-sso-first", in session: ConformanceSession) async throws(CheckSkipped) -> FirstAppTokens {
        let apps = try await apps(in: session)
        let result: Result<FirstAppTokens, StepFailure> = await session.remembered(key) { await signIn(apps, in: session) }
        return try result.orSkip()
    }

    private static func signIn(_ apps: ConformanceOptions.NativeSSOApps, in session: ConformanceSession) async -> Result<FirstAppTokens, StepFailure> {
        guard let endpoints = await session.endpoints().value else { return .failure(StepFailure("no endpoints (see challenge.endpoints)")) }
        let verifier = PKCE.Verifier.random()
        let request = AuthorizeRequestBuilder.publicClient(
            authorizationURI: endpoints.authorization, clientID: apps.first.id, redirectURI: apps.first.redirectURI,
            pkceChallenge: verifier.challenge(method: .s256).value,
            extra: [("scope", "openid device_sso"), ("nonce", "conform-" + PKCE.Verifier.random().value.prefix(16))])
        let outcome = await SignInDriver(session: session, party: .partnerApp).signIn(request, redirectURI: apps.first.redirectURI)
        let code: String
        switch outcome.flatMap({ $0.requireCode() }) {
        case .failure(let failure): return .failure(failure)
        case .success(let found): code = found
        }
        let fields = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", apps.first.redirectURI),
            ("code_verifier", verifier.value), ("client_id", apps.first.id),
        ]
        do {
            let exchange = TokenExchange(response: try await session.http.send(.form(endpoints.token, fields), as: .partnerApp))
            guard exchange.response.status == 200 else {
                return .failure(StepFailure("the first app's code redemption answered \(exchange.summary)"))
            }
            return .success(FirstAppTokens(exchange: exchange))
        } catch {
            return .failure(StepFailure("the token endpoint did not answer: \(error)"))
        }
    }

    /// The second app's token exchange (draft 07 §4.1): the first app's ID token as subject, a device secret as actor.
    static func exchange(
        idToken: String, deviceSecret: String, in session: ConformanceSession, as party: Party = .partnerApp
    ) async throws(CheckSkipped) -> TokenExchange {
        let apps = try await apps(in: session)
        guard let endpoint = await session.endpoints().value?.token else { throw CheckSkipped("no token endpoint (see challenge.endpoints)") }
        var fields = [
            ("grant_type", tokenExchange), ("subject_token", idToken), ("subject_token_type", idTokenType),
            ("actor_token", deviceSecret), ("actor_token_type", deviceSecretType), ("scope", "openid"),
            ("client_id", apps.second.id),
        ]
        if let secret = apps.second.secret { fields.append(("client_secret", secret)) }
        do {
            return TokenExchange(response: try await session.http.send(.form(endpoint, fields), as: party))
        } catch {
            throw CheckSkipped("the token endpoint did not answer: \(error)")
        }
    }
}

/// The first app's token response to `openid device_sso`.
struct FirstAppTokens: Sendable {
    var exchange: TokenExchange
    var idToken: String? { exchange.json?["id_token"]?.stringValue }
    var deviceSecret: String? { exchange.json?["device_secret"]?.stringValue }
    var idTokenParts: TokenForgery.JWTParts? { idToken.flatMap(TokenForgery.split) }

    /// Both values the second app needs, or why the sign-in gave none.
    func pair() throws(CheckSkipped) -> (idToken: String, deviceSecret: String) {
        guard let idToken, let deviceSecret else {
            throw CheckSkipped("the first app's token response has no id_token and device_secret (see nativesso.device-secret)")
        }
        return (idToken, deviceSecret)
    }
}
