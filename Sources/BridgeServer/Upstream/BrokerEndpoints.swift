import BridgeStore
import Foundation
import Hummingbird
import Logging
import SignInProtocol

/// The session broker: the Vipps iOS login guide's backend API (`/auth/{provider}/login` → `{authUrl, sessionId}`,
/// the deep link `?success=true&sessionId=…`, `POST /auth/{provider}/session` → `{token, user}`), with the session
/// bound to a PKCE challenge (RFC 7636) the app sends at login, so that a leaked `sessionId` alone gets nothing.
struct BrokerEndpoints: Sendable {
    let environment: AuthorizeEnvironment
    let providers: UpstreamProviders
    let metrics: BridgeMetrics
    let tokens: AccessTokenIssuer

    var settings: BridgeConfiguration.Broker { environment.configuration.broker }
    var bodies: RequestBodyReader { RequestBodyReader(environment.configuration) }

    /// The broker's app client, when the broker is on.
    var client: BridgeConfiguration.Client? { settings.clientId.flatMap { environment.client(id: $0) } }

    /// `GET|POST /auth/{provider}/login` with `code_challenge`, `code_challenge_method=S256`, optional
    /// `redirect_uri` (one of the app client's registered deep links; default its first) and
    /// `requested_flow=app_to_app`.
    func login(_ request: Request, _ context: BridgeRequestContext) async throws -> Response {
        guard let client, let provider = providers[context.parameters.get("provider")] else {
            return Self.error(OAuthError(.invalidRequest, description: "no such provider"), status: .notFound)
        }
        let parameters: [String: String]
        do { parameters = try await BrokerParameters.read(request, bodies: bodies) } catch { return Self.error(error) }
        let challenge: PKCE.Challenge
        do {
            // S256 only, and required: the challenge is the whole protection of the session (RFC 7636 §4.2).
            guard parameters["code_challenge_method"] == "S256" else {
                throw OAuthError(.invalidRequest, description: "code_challenge_method must be S256")
            }
            challenge = try PKCE.Challenge(value: parameters["code_challenge"] ?? "", method: .s256)
        } catch let error as OAuthError {
            return Self.error(error)
        } catch {
            return Self.error(OAuthError(.invalidRequest, description: "code_challenge must be 43 base64url characters"))
        }
        let redirectURI = parameters["redirect_uri"] ?? client.redirectUris[0]
        // RFC 8252 §8.1 / RFC 9700 §2.1: only a registered deep link, compared exactly.
        guard client.redirectUris.contains(redirectURI) else {
            return Self.error(OAuthError(.invalidRequest, description: "redirect_uri is not registered for the app"))
        }
        let appToApp = parameters["requested_flow"] == "app_to_app"
        if appToApp && !provider.settings.appToApp {
            return Self.error(OAuthError(.invalidRequest, description: "this provider does not offer app_to_app"))
        }
        let now = environment.now()
        let sessionID = SecretToken()
        let attempt = UpstreamAttempt()
        let authURL: String
        do {
            authURL = try await provider.authorizationURL(for: attempt, appToApp: appToApp)
        } catch let failure as UpstreamFailure {
            failure.report(upstream: provider.settings.id, metrics: metrics, context: context)
            return Self.error(OAuthError(.temporarilyUnavailable, description: "\(provider.settings.name) is not answering"))
        }
        try await environment.store.startUpstreamLogin(
            attempt.record(
                upstream: provider.settings.id, at: now, lifetime: settings.loginLifetimeSeconds,
                brokerSessionID: sessionID.value),
            broker: BrokerSessionRecord(
                digest: sessionID.digest, upstreamID: provider.settings.id, clientID: client.id, redirectURI: redirectURI,
                codeChallenge: challenge.value, createdAt: now,
                expiresAt: now.addingTimeInterval(TimeInterval(settings.sessionLifetimeSeconds))))
        return OAuthHTTPResponse.json(JSONBody.bytes(LoginAnswer(authUrl: authURL, sessionId: sessionID.value)))
    }

    /// The upstream callback of a broker login: the browser goes to the app's deep link with the outcome.
    func finish(
        _ login: UpstreamLoginRecord, sessionID: String, session: BrokerSessionRecord?, provider: UpstreamProvider,
        query: Parameters, at now: Date, context: BridgeRequestContext
    ) async throws -> Response {
        let digest = TokenDigest(of: sessionID)
        guard let deepLink = session?.redirectURI else {
            return environment.pages.error(.fallback, status: .badRequest, message: \.expired)
        }
        func back(_ outcome: KeyValuePairs<String, String>) -> Response {
            Response(status: .found, headers: [.location: FormParameters(outcome).appended(to: deepLink)])
        }
        /// The sign-in failed: the session ends now, so that `/session` answers the same error at once.
        func failed(_ failure: UpstreamFailure, tellingTheApp outcome: BrokerFailure) async throws -> Response {
            failure.report(upstream: provider.settings.id, metrics: metrics, context: context)
            _ = try await environment.store.failBrokerSession(digest, failure: outcome.rawValue, at: now)
            return back(["success": "false", "error": outcome.rawValue])
        }
        if let error = query["error"] {
            return try await failed(.authorizationError(error), tellingTheApp: BrokerFailure(upstreamError: String(error)))
        }
        let user: UpstreamUser
        do {
            user = try await provider.signIn(
                code: query["code"].map(String.init) ?? "", verifier: login.codeVerifier, nonceDigest: login.nonceDigest,
                now: now)
        } catch let failure as UpstreamFailure {
            return try await failed(failure, tellingTheApp: BrokerFailure(failure))
        }
        let signIn = UpstreamSignInEndpoints(environment: environment, providers: providers, metrics: metrics)
        // A new secret for the deep link: the /login id is known to whoever started the login, who may have sent
        // the link to someone else; only the browser that signed in gets this one (RFC 6749 §10.12's concern).
        let completion = SecretToken()
        let signedIn = try await environment.store.signInUpstream(
            signIn.identity(of: user, at: provider), end: .brokerSession(digest, completion: completion.digest), at: now)
        guard signedIn.ended else { return back(["success": "false", "error": BrokerFailure.sessionExpired.rawValue]) }
        context.logger.info(
            "broker session signed in",
            metadata: ["upstream": "\(provider.settings.id)", "user": "\(signedIn.user.id)", "how": "\(signedIn.how.rawValue)"])
        return back(["success": "true", "sessionId": completion.value])
    }

    /// `POST /auth/{provider}/session` with the deep link's `sessionId` and `code_verifier` (JSON or form): once,
    /// within the session's lifetime, `{token, user: {name, email, phoneNumber}}`.
    func session(_ request: Request, _ context: BridgeRequestContext) async throws -> Response {
        guard let client, let provider = providers[context.parameters.get("provider")] else {
            return Self.error(OAuthError(.invalidRequest, description: "no such provider"), status: .notFound)
        }
        let parameters: [String: String]
        do { parameters = try await BrokerParameters.read(request, bodies: bodies) } catch { return Self.error(error) }
        guard let sessionID = parameters["sessionId"], !sessionID.isEmpty else {
            return Self.error(OAuthError(.invalidRequest, description: "sessionId is missing"))
        }
        let verifier: PKCE.Verifier
        do {
            verifier = try PKCE.Verifier(parameters["code_verifier"] ?? "")
        } catch {
            return Self.error(OAuthError(.invalidRequest, description: "code_verifier is missing or malformed (RFC 7636 section 4.1)"))
        }
        let now = environment.now()
        let refused = OAuthError(.invalidGrant, description: "the session is unknown, expired, used or the verifier is wrong")
        // Drafted before the step that records it in the new grant, signed after (as the token endpoint does).
        let access = tokens.draft(at: now)
        let claim = BrokerSessionClaim(
            session: TokenDigest(of: sessionID), codeChallenge: verifier.challenge(method: .s256).value,
            upstreamID: provider.settings.id, clientID: client.id, scope: client.scopes.joined(separator: " "),
            access: access.record(in: .generate()))
        switch try await environment.store.redeemBrokerSession(claim, at: now) {
        case .redeemed(_, let user, let grant):
            let issued = try tokens.sign(access, in: grant)
            context.logger.info("broker session redeemed", metadata: ["user": "\(user.id)"])
            return OAuthHTTPResponse.json(
                JSONBody.bytes(
                    SessionAnswer(
                        token: issued.token,
                        user: .init(name: user.friendlyName, email: user.email, phoneNumber: user.phoneNumber))))
        case .misdirected:
            context.logger.notice("broker session redeemed at another provider's path")
            return Self.error(refused)
        case .pending:
            return Self.error(OAuthError(.authorizationPending, description: "the sign-in has not finished"))
        case .failed(let code):
            let failure = BrokerFailure(rawValue: code) ?? .serverError
            context.logger.info("broker session ended by a failed sign-in", metadata: ["error": "\(failure.rawValue)"])
            return Self.error(failure.sessionError, status: .badRequest)
        case .wrongVerifier:
            context.logger.notice("broker session: wrong PKCE verifier, session burnt")
            return Self.error(refused)
        case .replayed, .expired, .unknown:
            return Self.error(refused)
        }
    }

    static func error(_ error: OAuthError, status: HTTPResponse.Status? = nil) -> Response {
        var response = OAuthHTTPResponse.error(error, realm: "broker")
        if let status { response.status = status }
        return response
    }

    struct LoginAnswer: Encodable {
        var authUrl: String
        var sessionId: String
    }

    struct SessionAnswer: Encodable {
        struct User: Encodable {
            var name: String?
            var email: String?
            var phoneNumber: String?
        }
        var token: String
        var user: User
    }
}

/// The broker's request parameters: the query, and for a POST a form or a JSON object of strings (the iOS guide's
/// sample sends JSON), read by `RequestBodyReader` within `limits.maxBodyBytes`. A parameter sent twice is refused.
enum BrokerParameters {
    static func read(_ request: Request, bodies: RequestBodyReader) async throws(OAuthError) -> [String: String] {
        var parameters = [String: String]()
        func add(_ name: String, _ value: String) throws(OAuthError) {
            guard parameters.updateValue(value, forKey: name) == nil else {
                throw OAuthError(.invalidRequest, description: "\(name) is sent twice")
            }
        }
        for (name, value) in request.uri.queryParameters { try add(String(name), String(value)) }
        guard request.method == .post else { return parameters }
        let posted: FormParameters
        do {
            posted = try await bodies.parameters(request)
        } catch {
            throw error.oauthError
        }
        for pair in posted { try add(pair.name, pair.value) }
        return parameters
    }
}
