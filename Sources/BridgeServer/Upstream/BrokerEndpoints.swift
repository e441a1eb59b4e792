import BridgeStore
import Foundation
import Logging
import SignInProtocol

/// What the broker's `/login` and `/session` are asked, already pulled out of HTTP by the route: the provider the
/// path names, and the parameters (the query, and a posted form or JSON object), or why they could not be read.
struct BrokerRequest: Sendable {
    var provider: String?
    var parameters: Result<[String: String], OAuthError>

    func readParameters() throws(BrokerRefusal) -> [String: String] {
        switch parameters {
        case .success(let parameters): return parameters
        case .failure(let error): throw .request(error)
        }
    }
}

/// Why the broker refuses a request. The route renders each as an RFC 6749 §5.2 JSON error.
enum BrokerRefusal: Error, Sendable, Equatable {
    /// The path names no configured provider (or the broker has no app client): 404.
    case unknownProvider
    /// An RFC 6749 §5.2 error with its code's status; `OAuthError.storeUnavailable` when the store could not be asked.
    case request(OAuthError)
    /// The sign-in at the provider ended the session: 400 with the failure's code (RFC 8628 §3.5 answers a poll
    /// the same way once the user denied).
    case signInFailed(BrokerFailure)
}

extension BrokerRefusal: StoreCallFailure {
    init(_ outage: StoreUnavailable) { self = .request(OAuthError(outage)) }
    init(storeFault: any Error) { self = .request(OAuthError(storeFault: storeFault)) }
}

/// Where the upstream callback of a broker login sends the browser.
enum BrokerFinish: Sendable, Equatable {
    /// To the app's deep link, with the outcome (`success`, `sessionId` or `error`) in its query.
    case backToApp(location: String)
    /// The broker session is gone: the "expired" page.
    case sessionGone
}

/// The session broker: the Vipps iOS login guide's backend API (`/auth/{provider}/login` → `{authUrl, sessionId}`,
/// the deep link `?success=true&sessionId=…`, `POST /auth/{provider}/session` → `{token, user}`), with the session
/// bound to a PKCE challenge (RFC 7636) the app sends at login, so that a leaked `sessionId` alone gets nothing.
/// Values in, values or a `BrokerRefusal` out; the routes are in `BridgeRoutes+Broker.swift`.
struct BrokerEndpoints: Sendable {
    let configuration: BridgeConfiguration
    /// The broker's logins and sessions.
    let store: any UpstreamStore
    let now: @Sendable () -> Date
    let providers: UpstreamProviders
    let metrics: BridgeMetrics
    let tokens: AccessTokenIssuer
    /// Maps a provider's user to a local identity, as the browser sign-in does.
    let upstreamSignIn: UpstreamSignInService

    var settings: BridgeConfiguration.Broker { configuration.broker }

    /// The broker's app client, when the broker is on.
    var client: BridgeConfiguration.Client? { settings.clientId.flatMap { configuration.client(id: $0) } }

    /// `GET|POST /auth/{provider}/login` with `code_challenge`, `code_challenge_method=S256`, optional
    /// `redirect_uri` (one of the app client's registered deep links; default its first) and
    /// `requested_flow=app_to_app`.
    func login(_ request: BrokerRequest, logger: Logger) async throws(BrokerRefusal) -> LoginAnswer {
        guard let client, let provider = providers[request.provider] else { throw .unknownProvider }
        let parameters = try request.readParameters()
        let challenge: PKCE.Challenge
        // S256 only, and required: the challenge is the whole protection of the session (RFC 7636 §4.2).
        guard parameters["code_challenge_method"] == "S256" else {
            throw .request(OAuthError(.invalidRequest, description: "code_challenge_method must be S256"))
        }
        do {
            challenge = try PKCE.Challenge(value: parameters["code_challenge"] ?? "", method: .s256)
        } catch {
            throw .request(OAuthError(.invalidRequest, description: "code_challenge must be 43 base64url characters"))
        }
        let redirectURI = parameters["redirect_uri"] ?? client.redirectUris[0]
        // RFC 8252 §8.1 / RFC 9700 §2.1: only a registered deep link, compared exactly.
        guard client.redirectUris.contains(redirectURI) else {
            throw .request(OAuthError(.invalidRequest, description: "redirect_uri is not registered for the app"))
        }
        let appToApp = parameters["requested_flow"] == "app_to_app"
        if appToApp && !provider.settings.appToApp {
            throw .request(OAuthError(.invalidRequest, description: "this provider does not offer app_to_app"))
        }
        let now = self.now()
        let sessionID = SecretToken()
        let attempt = UpstreamAttempt()
        let authURL: String
        do {
            authURL = try await provider.authorizationURL(for: attempt, appToApp: appToApp)
        } catch let failure as UpstreamFailure {
            failure.report(upstream: provider.settings.id, metrics: metrics, logger: logger)
            throw .request(OAuthError(.temporarilyUnavailable, description: "\(provider.settings.name) is not answering"))
        } catch {
            // Not the provider's answer and not the store: the server's own fault.
            throw .request(.serverFault)
        }
        try await Self.storeStep {
            try await store.startUpstreamLogin(
                attempt.record(
                    upstream: provider.settings.id, at: now, lifetime: settings.loginLifetimeSeconds,
                    brokerSessionID: sessionID.value),
                broker: BrokerSessionRecord(
                    digest: sessionID.digest, upstreamID: provider.settings.id, clientID: client.id,
                    redirectURI: redirectURI, codeChallenge: challenge.value, createdAt: now,
                    expiresAt: now.addingTimeInterval(TimeInterval(settings.sessionLifetimeSeconds))))
        }
        return LoginAnswer(authUrl: authURL, sessionId: sessionID.value)
    }

    /// The upstream callback of a broker login (`error` or `code` from the provider's redirect): the browser goes to
    /// the app's deep link with the outcome. A store outage is `StoreUnavailable` (the callback's outage page).
    func finish(
        _ login: UpstreamLoginRecord, sessionID: String, session: BrokerSessionRecord?, provider: UpstreamProvider,
        error: String?, code: String?, at now: Date, logger: Logger
    ) async throws -> BrokerFinish {
        let digest = TokenDigest(of: sessionID)
        guard let deepLink = session?.redirectURI else { return .sessionGone }
        func back(_ outcome: KeyValuePairs<String, String>) -> BrokerFinish {
            .backToApp(location: FormParameters(outcome).appended(to: deepLink))
        }
        /// The sign-in failed: the session ends now, so that `/session` answers the same error at once.
        func failed(_ failure: UpstreamFailure, tellingTheApp outcome: BrokerFailure) async throws -> BrokerFinish {
            failure.report(upstream: provider.settings.id, metrics: metrics, logger: logger)
            try await callStore { try await store.failBrokerSession(digest, failure: outcome.rawValue, at: now) }
            return back(["success": "false", "error": outcome.rawValue])
        }
        if let error {
            return try await failed(.authorizationError(error), tellingTheApp: BrokerFailure(upstreamError: error))
        }
        let user: UpstreamUser
        do {
            user = try await provider.signIn(
                code: code ?? "", verifier: login.codeVerifier, nonceDigest: login.nonceDigest, now: now)
        } catch let failure as UpstreamFailure {
            return try await failed(failure, tellingTheApp: BrokerFailure(failure))
        }
        // A new secret for the deep link: the /login id is known to whoever started the login, who may have sent
        // the link to someone else; only the browser that signed in gets this one (RFC 6749 §10.12's concern).
        let completion = SecretToken()
        let signedIn = try await callStore {
            try await store.signInUpstream(
                upstreamSignIn.identity(of: user, at: provider), end: .brokerSession(digest, completion: completion.digest),
                at: now)
        }
        guard signedIn.ended else { return back(["success": "false", "error": BrokerFailure.sessionExpired.rawValue]) }
        logger.info(
            "broker session signed in",
            metadata: ["upstream": "\(provider.settings.id)", "user": "\(signedIn.user.id)", "how": "\(signedIn.how.rawValue)"])
        return back(["success": "true", "sessionId": completion.value])
    }

    /// `POST /auth/{provider}/session` with the deep link's `sessionId` and `code_verifier` (JSON or form): once,
    /// within the session's lifetime, `{token, user: {name, email, phoneNumber}}`.
    func session(_ request: BrokerRequest, logger: Logger) async throws(BrokerRefusal) -> SessionAnswer {
        guard let client, let provider = providers[request.provider] else { throw .unknownProvider }
        let parameters = try request.readParameters()
        guard let sessionID = parameters["sessionId"], !sessionID.isEmpty else {
            throw .request(OAuthError(.invalidRequest, description: "sessionId is missing"))
        }
        let verifier: PKCE.Verifier
        do {
            verifier = try PKCE.Verifier(parameters["code_verifier"] ?? "")
        } catch {
            throw .request(
                OAuthError(.invalidRequest, description: "code_verifier is missing or malformed (RFC 7636 section 4.1)"))
        }
        let now = self.now()
        let refused = BrokerRefusal.request(
            OAuthError(.invalidGrant, description: "the session is unknown, expired, used or the verifier is wrong"))
        // Drafted before the step that records it in the new grant, signed after (as the token endpoint does).
        let access = tokens.draft(at: now)
        let claim = BrokerSessionClaim(
            session: TokenDigest(of: sessionID), codeChallenge: verifier.challenge(method: .s256).value,
            upstreamID: provider.settings.id, clientID: client.id, scope: client.scopes.joined(separator: " "),
            access: access.record(in: .generate()))
        switch try await Self.storeStep({ try await store.redeemBrokerSession(claim, at: now) }) {
        case .redeemed(_, let user, let grant):
            let issued: IssuedAccessToken
            do throws(OAuthError) {
                issued = try serverErrorOnFailure { try tokens.sign(access, in: grant) }
            } catch {
                throw .request(error)
            }
            logger.info("broker session redeemed", metadata: ["user": "\(user.id)"])
            return SessionAnswer(
                token: issued.token, user: .init(name: user.friendlyName, email: user.email, phoneNumber: user.phoneNumber))
        case .misdirected:
            logger.notice("broker session redeemed at another provider's path")
            throw refused
        case .pending:
            throw .request(OAuthError(.authorizationPending, description: "the sign-in has not finished"))
        case .failed(let code):
            let failure = BrokerFailure(rawValue: code) ?? .serverError
            logger.info("broker session ended by a failed sign-in", metadata: ["error": "\(failure.rawValue)"])
            throw .signInFailed(failure)
        case .wrongVerifier:
            logger.notice("broker session: wrong PKCE verifier, session burnt")
            throw refused
        case .replayed, .expired, .unknown:
            throw refused
        }
    }

    /// A store step of the broker: an outage is `temporarily_unavailable`, another fault `server_error` (`callStore`).
    private static func storeStep<T>(_ body: () async throws -> T) async throws(BrokerRefusal) -> T {
        try await callStore(failingAs: BrokerRefusal.self, body)
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
