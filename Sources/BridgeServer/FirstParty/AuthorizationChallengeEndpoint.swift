import BridgeStore
import Foundation
import Logging
import SignInProtocol

/// The store concerns the challenge endpoint calls itself: the auth_session chain and its app-to-app approval, the
/// pending request it saves and takes, and the grant and user behind a step-up `auth_session`.
typealias ChallengeEndpointStore = AuthSessionStore & AuthorizationStore & GrantStore & UserStore

/// What a request to the authorization challenge endpoint carries: the form, its credentials and DPoP header, and
/// the caller's address for the sign-in throttle.
struct ChallengeEndpointRequest: Sendable {
    var form: OAuthFormRequest
    var clientAddress: String?
}

/// The endpoint's answer: the JSON body, its status, and `Retry-After` for a throttled sign-in.
struct AuthorizationChallengeOutcome: Sendable, Equatable {
    var response: AuthorizationChallengeResponse
    var status: Int
    var retryAfterSeconds: Int? = nil

    static func refused(_ error: AuthorizationChallengeError, retryAfterSeconds: Int? = nil) -> Self {
        Self(response: .error(error), status: error.error.httpStatus, retryAfterSeconds: retryAfterSeconds)
    }
}

/// `POST /oauth2/authorize-challenge` (draft-ietf-oauth-first-party-apps-04 §4.1, §5): a first-party app signs the
/// user in without a browser. The first request carries the authorize parameters (checked by the authorize
/// pipeline, PKCE S256 required) and parks the request as the authorize endpoint does; each later request carries
/// the `auth_session` of the previous answer and one step's credential. What the request needs next is decided by
/// the same `InteractionSteps` as the sign-in pages', and `ChallengeRenderer` answers it natively:
/// - signed in and allowed: `{"authorization_code": …}` (§5.2.1), PKCE-bound and DPoP-bound as requested;
/// - nobody signed in: `insufficient_authorization` with `password_required`, or for `requested_flow=app_to_app`
///   the host's app's deep link (`app_to_app_deep_link`), then `authorization_pending` until it decided;
/// - a page is needed (consent, or `upstream=<provider>`): `redirect_to_web` with a `request_uri` (§5.2.2.1.1);
/// - a wrong password: `insufficient_authorization` again; over the throttle: `slow_down`, 429, `Retry-After`.
/// Every answer that continues carries a new `auth_session`; the one presented is used up in the same store step
/// that continues the request and saves the next one (`advanceAuthSession`).
struct AuthorizationChallengeEndpoint: Sendable {
    static let path = "/oauth2/authorize-challenge"
    /// This server's step parameters (§5.1 lets the server define them); never part of the authorization request.
    static let stepParameters = AuthorizationChallengeRequest.StepName.all

    let environment: AuthorizeEnvironment
    let store: any ChallengeEndpointStore
    let authenticator: ClientAuthenticator
    let dpop: DPoPProofs
    let pushed: PushedAuthorizationEndpoint
    let completion: CodeIssuance
    /// The sign-in pages' steps (`BridgeServices` hands the same value to both surfaces).
    var steps: InteractionSteps
    /// Opens the `auth_session` of a token response (§6.1); a step's `auth_session` is the store's.
    let stepUp: StepUpSessionSeal

    func respond(to request: ChallengeEndpointRequest, logger: Logger) async -> AuthorizationChallengeOutcome {
        do throws(OAuthError) {
            return try await proceed(request, logger: logger)
        } catch {
            logger.info("authorization challenge refused", metadata: ["error": .string(error.code.rawValue)])
            return .refused(AuthorizationChallengeError(error))
        }
    }

    func proceed(_ request: ChallengeEndpointRequest, logger: Logger) async throws(OAuthError)
        -> AuthorizationChallengeOutcome
    {
        let form = try OAuthForm.decode(request.form.body)
        for name in Self.stepParameters where form.values(for: name).count > 1 {
            throw .invalidRequest("parameter '\(name)' appears more than once")
        }
        // §4.1: client authentication exactly as at the token endpoint; §5.1: a later request may name its client by
        // its auth_session alone.
        let named = try await namingClient(form, request.form)
        let authenticated = try await authenticator.authenticate(request.form, form: named)
        // §5 and §9.1: the server MUST verify that the client is first-party before any step.
        guard authenticated.client.firstParty else {
            throw OAuthError(.unauthorizedClient, description: "only first-party clients may use this endpoint")
        }
        let now = environment.now()
        // §9.5.1: a DPoP proof binds the code, and §9.6.1 the auth_session, to its key.
        let proof = try await dpop.proof(request.form.dpop, client: authenticated, at: now)
        let chain: AuthSessionRecord
        var presentedDigest: TokenDigest? = nil
        if let presented = form["auth_session"].nonEmpty, let session = stepUp.open(presented) {
            chain = try await stepUp(session, form, client: authenticated.client, dpopKey: proof?.thumbprint, at: now)
        } else if let presented = form["auth_session"].nonEmpty {
            chain = try await read(presented, client: authenticated.id, dpopKey: proof?.thumbprint, at: now)
            presentedDigest = TokenDigest(of: presented)
        } else {
            chain = try await start(form, client: authenticated.client, dpopKey: proof?.thumbprint, at: now)
        }
        let step = AuthorizationChallengeStep(
            endpoint: self, form: form, client: authenticated.client, clientAddress: request.clientAddress, now: now,
            logger: logger)
        return try await step.run(chain, presented: presentedDigest)
    }

    /// §5.1: `client_id` is "REQUIRED if the client is not authenticating with the authorization server and if no
    /// auth_session is included". A request with neither `client_id` nor other credentials names the client of its
    /// `auth_session`, which then authenticates as any public client does (a confidential one still needs its
    /// secret); a `client_id` that is sent must be the auth_session's (`take` and `stepUp` check it).
    func namingClient(_ form: FormParameters, _ request: OAuthFormRequest) async throws(OAuthError) -> FormParameters {
        guard form["client_id"] == nil, (request.authorization ?? "").isEmpty, request.attestation?.isEmpty ?? true,
            let presented = form["auth_session"].nonEmpty
        else { return form }
        let clientID: String?
        if let session = stepUp.open(presented) {
            clientID = session.clientID
        } else {
            clientID = try await storeCall { try await store.authSessionClient(TokenDigest(of: presented)) }
        }
        guard let clientID else { throw OAuthError(.invalidSession, description: "auth_session is unknown or was used already") }
        var named = form
        named.append("client_id", clientID)
        return named
    }

    /// The first request: the authorize checks on its parameters, then the request parked as the authorize endpoint
    /// parks it, bound to a random browser binding nobody holds (only the auth_session chain continues it).
    func start(
        _ form: FormParameters, client: BridgeConfiguration.Client, dpopKey: String?, at now: Date
    ) async throws(OAuthError) -> AuthSessionRecord {
        var parameters = form
        for name in Self.stepParameters + ["client_secret"] { parameters.removeAll(named: name) }
        if parameters["client_id"] == nil { parameters.append("client_id", client.id) }
        // §6: the app sends no redirect_uri, so its code is redeemed without one; the registered one is only for
        // a `redirect_to_web` continued in a browser.
        let redirectAsked = parameters["redirect_uri"] != nil
        if !redirectAsked, let registered = client.redirectUris.first { parameters.append("redirect_uri", registered) }
        let draft: AuthorizationDraft
        switch environment.pipeline.evaluate(parameters) {
        case .showError(let error), .redirectError(_, let error): throw error
        case .accepted(let accepted): draft = accepted
        }
        // §5.2.2.1.1: without PKCE no request_uri may be answered; this server asks S256 of every app here.
        guard draft.pkce?.method == .s256 else {
            throw .invalidRequest("code_challenge with code_challenge_method=S256 is required")
        }
        var pending = PendingAuthorization(draft, language: PageLanguage.fallback)
        if !redirectAsked { pending.redirectURI = "" }
        // RFC 9449 §10.1: a dpop_jkt beside a proof must name the proof's key.
        pending.dpopKeyThumbprint = try DPoPBinding.codeKey(
            named: pending.dpopKeyThumbprint.map { [$0] } ?? [], proofKey: dpopKey)
        let interaction = SecretToken()
        let browser = SecretToken()
        let expiresAt = now.addingTimeInterval(TimeInterval(environment.configuration.authorize.requestLifetimeSeconds))
        let payload: String
        do { payload = try pending.encoded() } catch { throw .invalidRequest("the request cannot be kept") }
        let record = PendingAuthorizationRecord(
            digest: interaction.digest, clientID: client.id, browserDigest: browser.digest,
            csrfDigest: SecretToken().digest, payload: payload, terms: pending.terms(client: client, requestedAt: now),
            createdAt: now, expiresAt: expiresAt)
        try await storeCall { try await store.savePendingAuthorization(record) }
        return AuthSessionRecord(
            digest: interaction.digest, clientID: client.id, interaction: interaction.digest, browser: browser.digest,
            dpopKeyThumbprint: dpopKey, createdAt: now, expiresAt: expiresAt)
    }

    /// A step-up (§6.1): the token response's `auth_session` restores who signed in, so the new request (its own
    /// authorization parameters, PKCE included) asks that user's password only. Bound like the tokens it came with:
    /// to the client and to their DPoP key.
    func stepUp(
        _ session: StepUpSession, _ form: FormParameters, client: BridgeConfiguration.Client, dpopKey: String?, at now: Date
    ) async throws(OAuthError) -> AuthSessionRecord {
        guard session.expiresAt > now else { throw OAuthError(.invalidSession, description: "auth_session has expired") }
        guard session.clientID == client.id else {
            throw OAuthError(.invalidSession, description: "auth_session was issued to another client")
        }
        guard session.dpopKeyThumbprint == dpopKey else {
            throw OAuthError(.invalidSession, description: "auth_session is bound to another DPoP key")
        }
        // The tokens' grant revoked (logout, revocation, a password change): what the session restored is gone too.
        let grant = try await storeCall { try await store.grant(id: GrantID(session.grantID)) }
        guard let grant, grant.revokedAt == nil, grant.userID == session.userID, grant.clientID == session.clientID else {
            throw OAuthError(.invalidSession, description: "auth_session's grant was revoked")
        }
        guard let user = try await storeCall({ try await store.user(id: session.userID) }) else {
            throw OAuthError(.invalidSession, description: "auth_session names no user of this server")
        }
        var chain = try await start(form, client: client, dpopKey: dpopKey, at: now)
        chain.signInName = user.signInName
        return chain
    }

    /// A later request: its `auth_session`'s chain, read (the step that continues it takes it), or
    /// `invalid_session` (§5.2.2.1).
    func read(_ presented: String, client: String, dpopKey: String?, at now: Date) async throws(OAuthError)
        -> AuthSessionRecord
    {
        let reading = try await storeCall {
            try await store.authSession(TokenDigest(of: presented), clientID: client, dpopKeyThumbprint: dpopKey, at: now)
        }
        guard case .taken(let record) = reading else { throw Self.refusal(reading) }
        return record
    }

    /// Why an `auth_session` cannot continue (§5.2.2.1: `invalid_session`).
    static func refusal(_ taking: AuthSessionTaking) -> OAuthError {
        switch taking {
        case .taken, .unknown: OAuthError(.invalidSession, description: "auth_session is unknown or was used already")
        case .expired: OAuthError(.invalidSession, description: "auth_session has expired")
        case .otherClient: OAuthError(.invalidSession, description: "auth_session was issued to another client")
        case .otherKey: OAuthError(.invalidSession, description: "auth_session is bound to another DPoP key")
        }
    }
}
