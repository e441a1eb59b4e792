import BridgeStore
import Foundation
import Logging
import SignInProtocol

/// Where a parked authorization request stands after a store step, and what the request asked for.
struct InteractionState: Sendable {
    let progress: AuthorizationProgress
    /// The code the store issued if `progress` is `.issued`.
    let code: SecretToken
    let parked: ParkedInteraction
    /// The upstream provider this request asked to sign in with (the sign-in page's "Continue with …"), if any.
    var requestedUpstream: String? = nil
    /// The browser asked for the sign-in page instead of the host's app (the app-to-app deep link opened in a
    /// browser without the app: `AppToAppEndpoints.landing`).
    var signInHere = false
    let logger: Logger

    var id: String { parked.id }
    var pending: PendingAuthorization { parked.pending }
    var client: BridgeConfiguration.Client { parked.client }
}

/// One step of the interaction between the authorize request and the final redirect (sign in, consent, wait for
/// the host's app, sign in upstream, finish): it looks at the state and says what the request needs, as a value;
/// `InteractionRenderer` draws it for a browser, `ChallengeRenderer` for the authorization challenge endpoint. Like node-oidc-provider's interaction policy (prompts and their checks), the
/// steps are asked in the order of `InteractionSteps.sequence` and the first that applies decides.
protocol InteractionStep: Sendable {
    /// What the request needs when this step applies to `state`; nil to let the next step look.
    func need(_ state: InteractionState, environment: AuthorizeEnvironment) async throws -> InteractionNeed?
}

/// The interaction's steps, in the order they are asked (one file per step, in this folder).
struct InteractionSteps: Sendable {
    let sequence: [any InteractionStep]

    init(upstream: UpstreamSignInService) {
        self.init(sequence: [FinishStep(), UpstreamSignInStep(service: upstream), AppToAppWaitStep(), SignInStep(), ConsentStep()])
    }

    init(sequence: [any InteractionStep]) {
        self.sequence = sequence
    }

    /// The first step's need; every `AuthorizationProgress` is met by `FinishStep`, `SignInStep` or `ConsentStep`,
    /// so `.expired` is only reached if a step is removed from the sequence.
    func need(_ state: InteractionState, environment: AuthorizeEnvironment) async throws -> InteractionNeed {
        for step in sequence {
            if let need = try await step.need(state, environment: environment) { return need }
        }
        return .expired
    }
}
