import BridgeStore
import Foundation
import Logging
import SignInProtocol

/// One request's step at the authorization challenge endpoint, once its `auth_session` chain is known: take the
/// host's app's decision or check the password when one was asked for, then ask the store where the request stands
/// (`continueAuthorization`, the sign-in pages' own rule) and answer it natively
/// (draft-ietf-oauth-first-party-apps-04 §5.2). The members it adds to `insufficient_authorization` are this
/// server's (§5.2.2 lets the server define them): `password_required` and `app_to_app_deep_link`.
struct AuthorizationChallengeStep: Sendable {
    static let passwordRequired: [String: JSONValue] = ["password_required": .bool(true)]

    let endpoint: AuthorizationChallengeEndpoint
    let form: FormParameters
    let client: BridgeConfiguration.Client
    let clientAddress: String?
    let now: Date
    let logger: Logger

    var environment: AuthorizeEnvironment { endpoint.environment }
    var store: any SignInPagesStore & AuthSessionStore & GrantStore { endpoint.store }

    func run(_ taken: AuthSessionRecord) async throws(OAuthError) -> AuthorizationChallengeOutcome {
        var chain = taken
        if chain.session == nil, let reference = chain.appToAppReference {
            if let waiting = try await hostAppDecision(reference, &chain) { return waiting }
        }
        if chain.session == nil, let name = form["username"] {
            chain.signInName = try Self.signInName(posted: name, kept: chain.signInName)
        }
        if chain.session == nil, form["password"] != nil {
            if let retry = try await signIn(&chain) { return retry }
        }
        if let upstream = form["upstream"] {
            guard environment.configuration.upstreams.contains(where: { $0.id == upstream }) else {
                throw .invalidRequest("upstream names no configured provider")
            }
            return try await redirectToWeb(chain)
        }
        let (code, issue) = endpoint.completion.newCode(at: now)
        let continuation = try await storeCall {
            try await store.continueAuthorization(
                chain.interaction, browser: chain.browser, session: chain.session, consent: false, issue: issue, at: now)
        }
        guard case .progress(let record, let progress) = continuation,
            let pending = try? PendingAuthorization.decode(record.payload)
        else { throw OAuthError(.invalidSession, description: "the authorization request has expired") }
        switch progress {
        case .issued(let grant, _, _):
            logger.info(
                "authorization code issued",
                metadata: ["client": .string(client.id), "user": .string(grant.userID), "grant": .string(grant.id.rawValue)])
            return AuthorizationChallengeOutcome(response: .code(code.value), status: 200)
        case .needsConsent:
            // OpenID Connect Core §3.1.2.6 for prompt=none; otherwise the consent page is the browser's.
            if pending.showsNoPages { throw OAuthError(.consentRequired, description: "the user must allow this client first") }
            return try await redirectToWeb(chain)
        case .needsSignIn:
            if pending.showsNoPages { throw OAuthError(.loginRequired, description: "the user must sign in") }
            // prompt=consent will need the consent page anyway: the user signs in there once, not here and there.
            if pending.asksConsentAgain { return try await redirectToWeb(chain) }
            if pending.appCallbackURI != nil, chain.appToAppReference == nil {
                let parked = try await storeCall {
                    try await AppToAppParking(environment: environment).park(
                        interaction: chain.interaction, interactionID: "", pending: pending, logger: logger)
                }
                chain.appToAppReference = parked.reference
                return try await continueLater(
                    chain, OAuthError(.insufficientAuthorization, description: "approve in the host's app, then send auth_session again"),
                    fields: ["app_to_app_deep_link": .string(parked.deepLink)])
            }
            return try await continueLater(
                chain, OAuthError(.insufficientAuthorization, description: "sign in with username and password"),
                fields: Self.passwordRequired)
        }
    }

    /// The name a password is checked against. Identifier first (§5): a name given alone is kept for the password
    /// step. Once a chain names a user (an earlier step, or a step-up's restored session, §6.1: "restore the context
    /// of a previous session"), a posted name may repeat it (case folded, as the throttle keys and the account check compare names)
    /// but never replace it: the chain stays that user's.
    static func signInName(posted: String, kept: String?) throws(OAuthError) -> String {
        let name = posted.trimmingCharacters(in: .whitespaces)
        guard let kept else { return name }
        guard name.lowercased() == kept.lowercased() else {
            throw .invalidRequest("username names another user than this auth_session; start a new sign-in")
        }
        return kept
    }

    /// The host's app's decision on the request parked for it: approved signs the chain in; otherwise the answer.
    func hostAppDecision(_ reference: TokenDigest, _ chain: inout AuthSessionRecord) async throws(OAuthError)
        -> AuthorizationChallengeOutcome?
    {
        let session = SecretToken()
        let lifetime = TimeInterval(environment.configuration.signIn.sessionLifetimeSeconds)
        let interaction = chain.interaction
        let taking = try await storeCall {
            try await store.takeAppToAppApproval(
                reference, interaction: interaction, session: session.digest,
                sessionExpiresAt: now.addingTimeInterval(lifetime), at: now)
        }
        switch taking {
        case .approved(let userID):
            logger.info("app-to-app approval taken", metadata: ["user": .string(userID)])
            chain.session = session.digest
            chain.appToAppReference = nil
            return nil
        case .undecided:
            // RFC 8628 §3.5's "not yet": ask again with the new auth_session.
            return try await continueLater(
                chain, OAuthError(.authorizationPending, description: "the host's app has not answered yet"))
        case .denied: throw .accessDenied("the user denied the request in the host's app")
        case .gone: throw OAuthError(.invalidSession, description: "the host's app request has expired")
        }
    }

    /// A password for the chain's request and the name given with it or before (`PasswordSignIn`, the sign-in
    /// page's rules), throttled per account, per address and per auth_session chain (§9.3: "rate-limit requests
    /// from the same auth_session"); nil when signed in, else the answer that lets the app ask again.
    func signIn(_ chain: inout AuthSessionRecord) async throws(OAuthError) -> AuthorizationChallengeOutcome? {
        let name = chain.signInName ?? ""
        let keys =
            SignInThrottle.keys(signInName: name, address: clientAddress ?? "") + ["auth_session:" + chain.interaction.hex]
        let password = PasswordSignIn(environment: environment)
        let interaction = chain.interaction
        let prepared = try await storeCall {
            try await password.prepare(interaction: interaction, signInName: name, keys: keys, at: now)
        }
        guard prepared.pending != nil else {
            throw OAuthError(.invalidSession, description: "the authorization request has expired")
        }
        let text = form["password"] ?? ""
        let outcome = try await storeCall {
            try await password.check(name: name, password: text, prepared, keys: keys, at: now, logger: logger)
        }
        switch outcome {
        case .signedIn(let session, _):
            chain.session = session.digest
            return nil
        case .wrongCredentials:
            return try await continueLater(
                chain, OAuthError(.insufficientAuthorization, description: "the user name or password is wrong"),
                fields: Self.passwordRequired)
        case .throttled(let wait):
            return try await continueLater(
                chain, OAuthError(.slowDown, description: "too many failed sign-ins; try again later"), retryAfter: wait)
        }
    }

    /// §5.2.2.1.1: the request goes on in a browser, pushed (RFC 9126) with the chain's DPoP key as `dpop_jkt`, so
    /// the browser's code is bound as the native one would have been; the native request ends here.
    func redirectToWeb(_ chain: AuthSessionRecord) async throws(OAuthError) -> AuthorizationChallengeOutcome {
        let interaction = chain.interaction
        let taken = try await storeCall { try await store.takePendingAuthorization(interaction, at: now) }
        guard let record = taken, let pending = try? PendingAuthorization.decode(record.payload) else {
            throw OAuthError(.invalidSession, description: "the authorization request has expired")
        }
        var parameters = pending.request.parameters
        if let key = chain.dpopKeyThumbprint {
            parameters.removeAll(named: "dpop_jkt")
            parameters.append("dpop_jkt", key)
        }
        let pushed = try await endpoint.pushed.push(parameters, clientID: client.id)
        logger.info("authorization challenge sent to the web", metadata: ["client": .string(client.id)])
        return .refused(
            AuthorizationChallengeError(
                OAuthError(.redirectToWeb, description: "continue in a browser with this request_uri"),
                requestURI: pushed.request_uri, expiresIn: pushed.expires_in))
    }

    /// An answer that continues: the chain saved under a new auth_session (§5.3.1), which the answer carries.
    func continueLater(
        _ chain: AuthSessionRecord, _ error: OAuthError, fields: [String: JSONValue] = [:], retryAfter: Int? = nil
    ) async throws(OAuthError) -> AuthorizationChallengeOutcome {
        let next = SecretToken()
        var record = chain
        record.digest = next.digest
        try await storeCall { try await store.saveAuthSession(record) }
        return .refused(
            AuthorizationChallengeError(error, authSession: next.value, additionalFields: fields),
            retryAfterSeconds: retryAfter)
    }
}
