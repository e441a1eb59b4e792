/// Nobody signed in and the request asked for an upstream provider (the sign-in page's "Continue with …"): start a
/// login there and send the browser to it. The provider's callback signs the browser in and sends it back to the
/// interaction, where `ConsentStep` and `FinishStep` go on as after a password sign-in. Asked before
/// `AppToAppWaitStep`, so that choosing a provider wins over waiting for the host's app.
struct UpstreamSignInStep: InteractionStep {
    let service: UpstreamSignInService

    func need(_ state: InteractionState, environment: AuthorizeEnvironment) async throws -> InteractionNeed? {
        guard case .needsSignIn = state.progress, let upstream = state.requestedUpstream,
            !state.pending.showsNoPages
        else { return nil }
        return try await service.start(
            upstream: upstream, interactionID: state.id, browserSecret: state.parked.browserSecret,
            environment: environment, logger: state.logger)
    }
}
