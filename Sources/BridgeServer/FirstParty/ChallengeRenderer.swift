import BridgeStore
import Foundation
import Logging
import SignInProtocol

/// Draws what `InteractionSteps` decided as the authorization challenge endpoint's answer
/// (draft-ietf-oauth-first-party-apps-04 §5.2), as `InteractionRenderer` draws it as a page: the code is
/// `authorization_code` (§5.2.1); signing in is `insufficient_authorization` with what to send (§5.2.2); waiting for
/// the host's app is its deep link; a page (consent, an upstream provider) is `redirect_to_web` (§5.2.2.1.1); a
/// refusal is its error. Every answer that continues carries the next chain's `auth_session` (§5.3.1).
struct ChallengeRenderer: Sendable {
    /// A chain a store step saved, with the `auth_session` value that names it.
    struct NextChain: Sendable {
        var record: AuthSessionRecord
        var value: String
    }

    let endpoint: AuthorizationChallengeEndpoint
    let client: BridgeConfiguration.Client
    let now: Date
    let logger: Logger

    /// The one store step (`advanceAuthSession`): `presented` taken, the request continued, `chain` saved under a
    /// new `auth_session`. Refused or failed, the presented value still works.
    func advance(_ presented: TokenDigest?, to chain: AuthSessionRecord, issue: CodeIssue) async throws(OAuthError)
        -> (NextChain, AuthorizationContinuation)
    {
        let secret = SecretToken()
        var record = chain
        record.digest = secret.digest
        let (store, next, now) = (endpoint.store, record, now)
        let advance = try await storeCall { try await store.advanceAuthSession(presented, to: next, issue: issue, at: now) }
        switch advance {
        case .refused(let why): throw AuthorizationChallengeEndpoint.refusal(why)
        case .continued(let continuation): return (NextChain(record: record, value: secret.value), continuation)
        }
    }

    func render(_ need: InteractionNeed, pending: PendingAuthorization, next: NextChain) async throws(OAuthError)
        -> AuthorizationChallengeOutcome
    {
        switch need {
        case .issueCode(let code, let grant):
            logger.info(
                "authorization code issued",
                metadata: ["client": .string(client.id), "user": .string(grant.userID), "grant": .string(grant.id.rawValue)])
            return AuthorizationChallengeOutcome(response: .code(code.value), status: 200)
        case .refuse(let error):
            throw error
        case .signIn:
            // prompt=consent will need the consent page anyway: the user signs in there once, not here and there.
            if pending.asksConsentAgain { return try await redirectToWeb(next.record) }
            return continuing(
                next,
                AuthorizationChallengeStep.Early(
                    error: OAuthError(.insufficientAuthorization, description: "sign in with username and password"),
                    fields: AuthorizationChallengeStep.passwordRequired))
        case .waitForHostApp(let deepLink, let reference):
            return try await waitForHostApp(next, deepLink: deepLink, reference: reference)
        case .consent, .upstream, .upstreamProblem:
            // The browser continues with its own pages: consent, the provider, or the sign-in page that says what
            // went wrong with it and offers the other ways in. The login `UpstreamSignInStep` recorded is bound to a
            // browser nobody holds and expires unused.
            return try await redirectToWeb(next.record)
        case .expired:
            throw OAuthError(.invalidSession, description: "the authorization request has expired")
        }
    }

    /// `AppToAppWaitStep` parked the request after the store step saved `next`: a second store step takes `next` and
    /// saves the chain with the reference, so that an outage in between still leaves `next` to continue with.
    func waitForHostApp(_ next: NextChain, deepLink: String, reference: TokenDigest) async throws(OAuthError)
        -> AuthorizationChallengeOutcome
    {
        var waiting = next.record
        waiting.appToAppReference = reference
        let stepped: (NextChain, AuthorizationContinuation)
        do {
            stepped = try await advance(next.record.digest, to: waiting, issue: endpoint.completion.newCode(at: now).1)
        } catch where error.code == .temporarilyUnavailable {
            return outage(next)
        }
        guard case .progress = stepped.1 else {
            throw OAuthError(.invalidSession, description: "the authorization request has expired")
        }
        return continuing(
            stepped.0,
            AuthorizationChallengeStep.Early(
                error: OAuthError(
                    .insufficientAuthorization, description: "approve in the host's app, then send auth_session again"),
                fields: ["app_to_app_deep_link": .string(deepLink)]))
    }

    /// An answer that continues: the saved chain's `auth_session` with it (§5.3.1).
    func continuing(_ next: NextChain, _ answer: AuthorizationChallengeStep.Early) -> AuthorizationChallengeOutcome {
        .refused(
            AuthorizationChallengeError(answer.error, authSession: next.value, additionalFields: answer.fields),
            retryAfterSeconds: answer.retryAfter)
    }

    /// The store failed after it saved `next`: `temporarily_unavailable` (RFC 6749 §4.1.2.1) with `next`, so the
    /// retry continues the request instead of presenting the value already taken.
    func outage(_ next: NextChain) -> AuthorizationChallengeOutcome {
        .refused(
            AuthorizationChallengeError(.storeUnavailable, authSession: next.value),
            retryAfterSeconds: Int(StoreOutage.retryAfterSeconds))
    }

    /// §5.2.2.1.1: the request goes on in a browser, pushed (RFC 9126) with the chain's DPoP key as `dpop_jkt`, so
    /// the browser's code is bound as the native one would have been; the native request ends here.
    func redirectToWeb(_ chain: AuthSessionRecord) async throws(OAuthError) -> AuthorizationChallengeOutcome {
        let (store, interaction, now) = (endpoint.store, chain.interaction, now)
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
}
