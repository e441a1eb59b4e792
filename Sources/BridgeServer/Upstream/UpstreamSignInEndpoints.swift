import BridgeStore
import Foundation
import Hummingbird
import Logging
import SignInProtocol

/// The sign-in page's "Continue with …" (`GET /oauth2/interaction/{id}/upstream/{upstream}`) and the providers'
/// callback (`GET /auth/upstream/{upstream}/callback`), which also finishes the broker's logins (`BrokerEndpoints`).
struct UpstreamSignInEndpoints: Sendable {
    let environment: AuthorizeEnvironment
    let providers: UpstreamProviders
    let metrics: BridgeMetrics

    /// Starts a login at the upstream for the parked request of this browser: 302 to the provider.
    func start(_ request: Request, _ context: BridgeRequestContext) async throws -> Response {
        let language = PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage])
        guard let id = context.parameters.get("id"), let idSecret = BrowserCookies.secret(id),
            let provider = providers[context.parameters.get("upstream")]
        else { return environment.pages.error(language, status: .notFound, message: \.expired) }
        let now = environment.now()
        guard let record = try await environment.store.pendingAuthorization(TokenDigest(of: idSecret), at: now) else {
            return environment.pages.error(language, status: .badRequest, message: \.expired)
        }
        guard let browser = environment.cookies.browserSecret(in: request), TokenDigest(of: browser) == record.browserDigest
        else {
            context.logger.notice("upstream sign-in started from another browser")
            return environment.pages.error(language, status: .forbidden, message: \.otherBrowser)
        }
        let attempt = UpstreamAttempt()
        let location: String
        do {
            location = try await provider.authorizationURL(for: attempt, appToApp: false)
        } catch let failure as UpstreamFailure {
            return failed(failure, provider: provider, language: language, context: context)
        }
        try await environment.store.startUpstreamLogin(
            attempt.record(
                upstream: provider.settings.id, at: now, lifetime: environment.configuration.broker.loginLifetimeSeconds,
                interactionID: idSecret, browser: TokenDigest(of: browser)),
            broker: nil)
        return Response(status: .found, headers: [.location: location])
    }

    /// The provider sends the browser back here with `code` and `state` (or `error`).
    func callback(_ request: Request, _ context: BridgeRequestContext, broker: BrokerEndpoints) async throws -> Response {
        let language = PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage])
        guard let provider = providers[context.parameters.get("upstream")] else {
            return environment.pages.error(language, status: .notFound, message: \.expired)
        }
        let query = request.uri.queryParameters
        let now = environment.now()
        // RFC 6749 §10.12: the state names the login this browser started; unknown, used or expired is refused.
        guard let state = query["state"].map(String.init), !state.isEmpty else {
            return refused("no state", provider: provider, language: language, context: context)
        }
        let login: UpstreamLoginRecord
        switch try await environment.store.takeUpstreamLogin(state: TokenDigest(of: state), at: now) {
        case .taken(let taken, let brokerSession) where taken.upstreamID == provider.settings.id:
            if let sessionID = taken.brokerSessionID {
                return try await broker.finish(
                    taken, sessionID: sessionID, session: brokerSession, provider: provider,
                    error: query["error"].map(String.init), code: query["code"].map(String.init), at: now,
                    logger: context.logger
                ).response(pages: environment.pages)
            }
            login = taken
        case .taken: return refused("state of another upstream", provider: provider, language: language, context: context)
        case .replayed: return refused("state replayed", provider: provider, language: language, context: context)
        case .expired, .unknown: return refused("state unknown or expired", provider: provider, language: language, context: context)
        }
        guard let interactionID = login.interactionID,
            let browser = environment.cookies.browserSecret(in: request), TokenDigest(of: browser) == login.browserDigest
        else {
            context.logger.notice("upstream callback in another browser", metadata: ["upstream": "\(provider.settings.id)"])
            return environment.pages.error(language, status: .forbidden, message: \.otherBrowser)
        }
        if let error = query["error"] {
            UpstreamFailure.authorizationError(error).report(upstream: provider.settings.id, metrics: metrics, context: context)
            return environment.pages.upstreamError(
                language, status: .badRequest, name: provider.settings.name, message: \.upstreamCancelled)
        }
        let user: UpstreamUser
        do {
            user = try await provider.signIn(
                code: query["code"].map(String.init) ?? "", verifier: login.codeVerifier, nonceDigest: login.nonceDigest,
                now: now)
        } catch let failure as UpstreamFailure {
            return failed(failure, provider: provider, language: language, context: context)
        }
        let session = SecretToken()
        let signedIn = try await environment.store.signInUpstream(
            identity(of: user, at: provider),
            end: .browserSession(
                digest: session.digest,
                expiresAt: now.addingTimeInterval(TimeInterval(environment.configuration.signIn.sessionLifetimeSeconds))),
            at: now)
        context.logger.info(
            "signed in upstream",
            metadata: ["upstream": "\(provider.settings.id)", "user": "\(signedIn.user.id)", "how": "\(signedIn.how.rawValue)"])
        var response = AuthorizeEnvironment.redirect(to: AuthorizeEnvironment.interactionPath(interactionID), after: .get)
        response.setCookie(environment.cookies.session(session.value))
        return response
    }

    /// The local user for an upstream identity: linked by email only when the provider marked it verified and the
    /// configuration allows it (`linkByVerifiedEmail`), else a new user named after the provider and subject.
    func identity(of user: UpstreamUser, at provider: UpstreamProvider) -> UpstreamIdentity {
        let settings = provider.settings
        return UpstreamIdentity(
            upstreamID: settings.id, subject: user.subject,
            newUser: UserRecord(
                id: "\(settings.id)-\(UUID().uuidString.lowercased())", signInName: "\(settings.id):\(user.subject)",
                friendlyName: user.name, passwordHash: nil, email: user.email, phoneNumber: user.phoneNumber),
            verifiedEmail: settings.linkByVerifiedEmail && user.emailVerified ? user.email : nil)
    }

    /// A login whose callback was refused before the provider was asked anything (state problems).
    func refused(_ why: String, provider: UpstreamProvider, language: PageLanguage, context: BridgeRequestContext) -> Response {
        context.logger.notice("upstream callback refused", metadata: ["upstream": "\(provider.settings.id)", "why": "\(why)"])
        metrics.countUpstreamFailure(upstream: provider.settings.id, reason: "state")
        return environment.pages.upstreamError(
            language, status: .badRequest, name: provider.settings.name, message: \.upstreamRefused)
    }

    /// The provider failed or its answer was refused: a page for the person, a line and a metric for the operator.
    func failed(
        _ failure: UpstreamFailure, provider: UpstreamProvider, language: PageLanguage, context: BridgeRequestContext
    ) -> Response {
        failure.report(upstream: provider.settings.id, metrics: metrics, context: context)
        guard failure.isOutage else {
            return environment.pages.upstreamError(
                language, status: .badGateway, name: provider.settings.name, message: \.upstreamRefused)
        }
        var response = environment.pages.upstreamError(
            language, status: .serviceUnavailable, name: provider.settings.name, message: \.upstreamDown)
        response.headers[.retryAfter] = "30"
        return response
    }
}

/// The secrets of one login at an upstream: `state` (RFC 6749 §10.12), `nonce` (OpenID Connect Core §3.1.2.1) and
/// the PKCE verifier (RFC 7636 §4.1), all fresh.
struct UpstreamAttempt: Sendable {
    let state = SecretToken()
    let nonce = SecretToken()
    let verifier = PKCE.Verifier.random()

    func record(
        upstream: String, at now: Date, lifetime: Int, interactionID: String? = nil, browser: TokenDigest? = nil,
        brokerSessionID: String? = nil
    ) -> UpstreamLoginRecord {
        UpstreamLoginRecord(
            stateDigest: state.digest, upstreamID: upstream, nonceDigest: nonce.digest, codeVerifier: verifier.value,
            interactionID: interactionID, browserDigest: browser, brokerSessionID: brokerSessionID, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(lifetime)))
    }
}
