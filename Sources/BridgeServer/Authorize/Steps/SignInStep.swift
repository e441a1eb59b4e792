import SignInProtocol

/// No session counts: the password form, or `login_required` for `prompt=none` (OpenID Connect Core §3.1.2.6).
struct SignInStep: InteractionStep {
    func need(_ state: InteractionState, environment: AuthorizeEnvironment) async throws -> InteractionNeed? {
        guard case .needsSignIn = state.progress else { return nil }
        if state.pending.showsNoPages { return .refuse(OAuthError(.loginRequired, description: "the user must sign in")) }
        return .signIn()
    }
}
