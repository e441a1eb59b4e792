import BridgeStore
import Foundation
import Hummingbird
import SignInProtocol

/// Where a parked authorization request stands after a store step, and what a page for it needs.
struct InteractionState: Sendable {
    let progress: AuthorizationProgress
    /// The code the store issued if `progress` is `.issued`.
    let code: SecretToken
    /// The interaction id (the secret in `/oauth2/interaction/{id}`).
    let id: String
    let pending: PendingAuthorization
    let client: BridgeConfiguration.Client
    let browserSecret: String
    let method: HTTPRequest.Method
    let context: BridgeRequestContext

    var csrfToken: String { CSRFToken.derive(browserSecret: browserSecret, interactionID: id) }
    var formTarget: String? { PageRenderer.formTarget(for: pending.redirectURI) }
    var actionPrefix: String { AuthorizeEnvironment.interactionPath(id) }
}

/// One step of the interaction between the authorize request and the final redirect (sign in, consent, wait for
/// the host's app, …). The steps are asked in order; the first that applies to the state answers. A new way to
/// sign in (an upstream provider) is one more conforming type in `InteractionSteps.sequence`.
protocol InteractionStep: Sendable {
    /// The answer when this step applies to `state`; nil to let the next step look.
    func answer(_ state: InteractionState, environment: AuthorizeEnvironment, completion: CodeIssuance) async throws -> Response?
}

/// The interaction's steps, in the order they are asked.
enum InteractionSteps {
    static let sequence: [any InteractionStep] = [FinishStep(), AppToAppWaitStep(), SignInStep(), ConsentStep()]

    /// The first step's answer; every `AuthorizationProgress` is answered by `FinishStep`, `SignInStep` or
    /// `ConsentStep`, so the fallback page is only reached if a step is removed from the sequence.
    static func answer(
        _ state: InteractionState, environment: AuthorizeEnvironment, completion: CodeIssuance
    ) async throws -> Response {
        for step in sequence {
            if let response = try await step.answer(state, environment: environment, completion: completion) {
                return response
            }
        }
        return environment.pages.error(state.pending.language, status: .badRequest, message: \.expired)
    }
}

/// The request finished in the store: redirect with the code.
struct FinishStep: InteractionStep {
    func answer(_ state: InteractionState, environment: AuthorizeEnvironment, completion: CodeIssuance) async throws -> Response? {
        guard case .issued(let grant, _, _) = state.progress else { return nil }
        return completion.redirect(
            code: state.code, grant: grant, pending: state.pending, client: state.client, method: state.method,
            context: state.context)
    }
}

/// No session counts: the password form, or `login_required` for `prompt=none` (OpenID Connect Core §3.1.2.6).
struct SignInStep: InteractionStep {
    func answer(_ state: InteractionState, environment: AuthorizeEnvironment, completion: CodeIssuance) async throws -> Response? {
        guard case .needsSignIn = state.progress else { return nil }
        if state.pending.showsNoPages {
            return completion.refuse(
                state.pending, OAuthError(.loginRequired, description: "the user must sign in"),
                method: state.method, context: state.context)
        }
        return environment.pages.signIn(
            .init(
                language: state.pending.language, clientName: state.client.displayName,
                action: state.actionPrefix + "/signin", csrfToken: state.csrfToken, formTarget: state.formTarget,
                upstreams: environment.upstreamLinks(interactionID: state.id)))
    }
}

/// Signed in, consent missing: the consent page, or `consent_required` for `prompt=none`.
struct ConsentStep: InteractionStep {
    func answer(_ state: InteractionState, environment: AuthorizeEnvironment, completion: CodeIssuance) async throws -> Response? {
        guard case .needsConsent(let user) = state.progress else { return nil }
        if state.pending.showsNoPages {
            return completion.refuse(
                state.pending, OAuthError(.consentRequired, description: "the user must allow this client first"),
                method: state.method, context: state.context)
        }
        return environment.pages.consent(
            .init(
                language: state.pending.language, clientName: state.client.displayName,
                userName: user.friendlyName ?? user.signInName, scopes: state.pending.scopes,
                action: state.actionPrefix + "/consent", csrfToken: state.csrfToken, formTarget: state.formTarget))
    }
}
