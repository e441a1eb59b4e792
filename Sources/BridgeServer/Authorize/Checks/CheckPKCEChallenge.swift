import SignInProtocol

/// PKCE (RFC 7636): required for public clients (RFC 9700 §2.1.1), optional for confidential ones (Office sends
/// none), `S256` only unless `authorize.allowPlainPKCE` is set. The challenge is stored with the code.
struct CheckPKCEChallenge: AuthorizeCheck {
    let allowPlain: Bool

    func check(_ draft: inout AuthorizationDraft) throws(OAuthError) {
        do {
            draft.pkce = try PKCE.Challenge.fromAuthorizationRequest(
                challenge: draft.request.codeChallenge, method: draft.request.codeChallengeMethod,
                required: draft.client.public, allowedMethods: allowPlain ? [.s256, .plain] : [.s256])
        } catch {
            throw error.oauthError
        }
    }
}
