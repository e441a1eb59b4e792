import SignInProtocol

/// Signed in, consent missing: the consent page, or `consent_required` for `prompt=none` (OpenID Connect Core
/// §3.1.2.6).
struct ConsentStep: InteractionStep {
    func need(_ state: InteractionState, environment: AuthorizeEnvironment) async throws -> InteractionNeed? {
        guard case .needsConsent(let user) = state.progress else { return nil }
        if state.pending.showsNoPages {
            return .refuse(OAuthError(.consentRequired, description: "the user must allow this client first"))
        }
        return .consent(user)
    }
}
