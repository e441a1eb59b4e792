import BridgeStore
import Foundation
import Logging
import SignInProtocol

/// One request's step at the authorization challenge endpoint, once its `auth_session` chain is known: take the
/// host's app's decision or check the password when one was asked for, then one store step takes the presented
/// chain, continues the parked request and saves the next chain (`advanceAuthSession`), and the sign-in pages'
/// `InteractionSteps` say what the request needs, which `ChallengeRenderer` answers natively
/// (draft-ietf-oauth-first-party-apps-04 §5.2). The members it adds to `insufficient_authorization` are this
/// server's (§5.2.2 lets the server define them): `password_required` and `app_to_app_deep_link`.
struct AuthorizationChallengeStep: Sendable {
    static let passwordRequired: [String: JSONValue] = ["password_required": .bool(true)]

    /// An answer decided before the steps (the host's app has not decided, a wrong password, the throttle): it
    /// continues the chain, which the store step still takes and saves.
    struct Early: Sendable {
        var error: OAuthError
        var fields: [String: JSONValue] = [:]
        var retryAfter: Int? = nil
    }

    let endpoint: AuthorizationChallengeEndpoint
    let form: FormParameters
    let client: BridgeConfiguration.Client
    let clientAddress: String?
    let now: Date
    let logger: Logger

    var environment: AuthorizeEnvironment { endpoint.environment }
    var store: any ChallengeEndpointStore { endpoint.store }

    /// `presented`: the digest of the `auth_session` the chain was read under, nil for a chain's first step.
    func run(_ read: AuthSessionRecord, presented: TokenDigest?) async throws(OAuthError) -> AuthorizationChallengeOutcome {
        var chain = read
        var early: Early? = nil
        if chain.session == nil, let reference = chain.appToAppReference {
            early = try await hostAppDecision(reference, &chain)
        }
        if early == nil, chain.session == nil, let name = form["username"] {
            chain.signInName = try Self.signInName(posted: name, kept: chain.signInName)
        }
        if early == nil, chain.session == nil, form["password"] != nil {
            early = try await signIn(&chain)
        }
        if let upstream = form["upstream"], !environment.configuration.upstreams.contains(where: { $0.id == upstream }) {
            throw .invalidRequest("upstream names no configured provider")
        }
        let renderer = ChallengeRenderer(endpoint: endpoint, client: client, now: now, logger: logger)
        let (code, issue) = endpoint.completion.newCode(at: now)
        let (next, continuation) = try await renderer.advance(presented, to: chain, issue: issue)
        guard case .progress(let record, let progress) = continuation,
            let pending = try? PendingAuthorization.decode(record.payload)
        else { throw OAuthError(.invalidSession, description: "the authorization request has expired") }
        if let early { return renderer.continuing(next, early) }
        // No browser takes part: no interaction id, and a browser secret nobody holds.
        let parked = ParkedInteraction(
            id: "", pending: pending, client: client, browserSecret: SecretToken().value, digest: next.record.interaction)
        let state = InteractionState(
            progress: progress, code: code, parked: parked, requestedUpstream: form["upstream"], logger: logger)
        let need: InteractionNeed
        do {
            need = try await endpoint.steps.need(state, environment: environment)
        } catch is StoreUnavailable {
            // A saved next chain goes with the answer, so a retry after the outage continues the request.
            guard AuthSessionAdvance.savesNext(continuation) else { throw .storeUnavailable }
            return renderer.outage(next)
        } catch {
            StoreFaultLog.record(error)
            throw .serverFault
        }
        return try await renderer.render(need, pending: pending, next: next)
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
    func hostAppDecision(_ reference: TokenDigest, _ chain: inout AuthSessionRecord) async throws(OAuthError) -> Early? {
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
            return Early(error: OAuthError(.authorizationPending, description: "the host's app has not answered yet"))
        case .denied: throw .accessDenied("the user denied the request in the host's app")
        case .gone: throw OAuthError(.invalidSession, description: "the host's app request has expired")
        }
    }

    /// A password for the chain's request and the name given with it or before (`PasswordSignIn`, the sign-in
    /// page's rules), throttled per account, per address and per auth_session chain (§9.3: "rate-limit requests
    /// from the same auth_session"); nil when signed in, else the answer that lets the app ask again.
    func signIn(_ chain: inout AuthSessionRecord) async throws(OAuthError) -> Early? {
        let name = chain.signInName ?? ""
        let keys =
            SignInThrottle.keys(signInName: name, address: clientAddress ?? "") + ["auth_session:" + chain.interaction.hex]
        let password = PasswordSignIn(environment: environment)
        let interaction = chain.interaction
        let prepared = try await classified(failingAs: OAuthError.self) {
            try await password.prepare(interaction: interaction, signInName: name, keys: keys, at: now)
        }
        guard prepared.pending != nil else {
            throw OAuthError(.invalidSession, description: "the authorization request has expired")
        }
        let text = form["password"] ?? ""
        let outcome = try await classified(failingAs: OAuthError.self) {
            try await password.check(name: name, password: text, prepared, keys: keys, at: now, logger: logger)
        }
        switch outcome {
        case .signedIn(let session, _):
            chain.session = session.digest
            return nil
        case .wrongCredentials:
            return Early(
                error: OAuthError(.insufficientAuthorization, description: "the user name or password is wrong"),
                fields: Self.passwordRequired)
        case .throttled(let wait):
            return Early(
                error: OAuthError(.slowDown, description: "too many failed sign-ins; try again later"), retryAfter: wait)
        }
    }
}
