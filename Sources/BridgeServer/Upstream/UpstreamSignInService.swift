import BridgeStore
import Foundation
import Logging
import SignInProtocol

/// The provider's answer at `GET /auth/upstream/{upstream}/callback`, as the route read it from the request.
struct UpstreamCallback: Sendable, Hashable {
    /// The `{upstream}` of the path.
    var upstream: String?
    var state: String?
    var code: String?
    /// The provider's `error` (RFC 6749 §4.1.2.1), if it sent one.
    var error: String?
    /// The secret of the browser cookie, if the browser sent a well-formed one.
    var browserSecret: String?
}

/// What a callback leads to.
enum UpstreamCallbackOutcome: Sendable {
    case unknownUpstream
    /// The state names a broker login (`/auth/{provider}/login`): the broker finishes it.
    case brokerLogin(
        UpstreamLoginRecord, sessionID: String, session: BrokerSessionRecord?, provider: UpstreamProvider, at: Date)
    /// The login was started in another browser (or this one sent no browser cookie).
    case otherBrowser
    case problem(UpstreamProblem, providerName: String)
    /// Signed in: the browser gets this session and goes back to its interaction, where the remaining steps
    /// (consent, finish) run as after a password sign-in.
    case signedIn(interactionID: String, session: SecretToken)
}

/// Sign-in at an upstream provider for a parked authorization request, values in and out: `start` records a login
/// and gives what `UpstreamSignInStep` needs (the provider's authorization URL); `callback` redeems the provider's
/// answer into a browser session. The store holds the login between the two (`UpstreamStore`).
struct UpstreamSignInService: Sendable {
    let providers: UpstreamProviders
    let metrics: BridgeMetrics

    /// Starts a login at `upstream` for the interaction `interactionID` of the browser `browserSecret`.
    func start(
        upstream: String, interactionID: String, browserSecret: String, environment: AuthorizeEnvironment,
        logger: Logger
    ) async throws -> InteractionNeed {
        guard let provider = providers[upstream] else { return .expired }
        let now = environment.now()
        let attempt = UpstreamAttempt()
        let location: String
        do {
            location = try await provider.authorizationURL(for: attempt, appToApp: false)
        } catch let failure as UpstreamFailure {
            failure.report(upstream: provider.settings.id, metrics: metrics, logger: logger)
            return .upstreamProblem(.failed(failure), providerName: provider.settings.name)
        }
        let record = attempt.record(
            upstream: provider.settings.id, at: now, lifetime: environment.configuration.broker.loginLifetimeSeconds,
            interactionID: interactionID, browser: TokenDigest(of: browserSecret))
        try await callStore { try await environment.store.startUpstreamLogin(record, broker: nil) }
        return .upstream(location: location)
    }

    /// The provider sent the browser back with `code` and `state` (or `error`).
    func callback(
        _ callback: UpstreamCallback, environment: AuthorizeEnvironment, logger: Logger
    ) async throws -> UpstreamCallbackOutcome {
        guard let provider = providers[callback.upstream] else { return .unknownUpstream }
        let now = environment.now()
        func refused(_ why: String) -> UpstreamCallbackOutcome {
            logger.notice("upstream callback refused", metadata: ["upstream": "\(provider.settings.id)", "why": "\(why)"])
            metrics.countUpstreamFailure(upstream: provider.settings.id, reason: "state")
            return .problem(.refused, providerName: provider.settings.name)
        }
        // RFC 6749 §10.12: the state names the login this browser started; unknown, used or expired is refused.
        guard let state = callback.state, !state.isEmpty else { return refused("no state") }
        let login: UpstreamLoginRecord
        switch try await callStore({ try await environment.store.takeUpstreamLogin(state: TokenDigest(of: state), at: now) }) {
        case .taken(let taken, let brokerSession) where taken.upstreamID == provider.settings.id:
            if let sessionID = taken.brokerSessionID {
                return .brokerLogin(taken, sessionID: sessionID, session: brokerSession, provider: provider, at: now)
            }
            login = taken
        case .taken: return refused("state of another upstream")
        case .replayed: return refused("state replayed")
        case .expired, .unknown: return refused("state unknown or expired")
        }
        guard let interactionID = login.interactionID, let browser = callback.browserSecret,
            TokenDigest(of: browser) == login.browserDigest
        else {
            logger.notice("upstream callback in another browser", metadata: ["upstream": "\(provider.settings.id)"])
            return .otherBrowser
        }
        if let error = callback.error {
            UpstreamFailure.authorizationError(error).report(upstream: provider.settings.id, metrics: metrics, logger: logger)
            return .problem(.cancelled, providerName: provider.settings.name)
        }
        let user: UpstreamUser
        do {
            user = try await provider.signIn(
                code: callback.code ?? "", verifier: login.codeVerifier, nonceDigest: login.nonceDigest, now: now)
        } catch let failure as UpstreamFailure {
            failure.report(upstream: provider.settings.id, metrics: metrics, logger: logger)
            return .problem(.failed(failure), providerName: provider.settings.name)
        }
        let session = SecretToken()
        let identity = identity(of: user, at: provider)
        let lifetime = TimeInterval(environment.configuration.signIn.sessionLifetimeSeconds)
        let signedIn = try await callStore {
            try await environment.store.signInUpstream(
                identity, end: .browserSession(digest: session.digest, expiresAt: now.addingTimeInterval(lifetime)), at: now)
        }
        logger.info(
            "signed in upstream",
            metadata: ["upstream": "\(provider.settings.id)", "user": "\(signedIn.user.id)", "how": "\(signedIn.how.rawValue)"])
        return .signedIn(interactionID: interactionID, session: session)
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
}
