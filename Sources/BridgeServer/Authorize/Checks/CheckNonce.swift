import SignInProtocol

/// OpenID Connect `nonce` (OpenID Connect Core §3.1.2.1): at most 255 characters, and required for an `openid`
/// request from a client registered with `requireNonce`. Plain OAuth requests keep no nonce.
struct CheckNonce: AuthorizeCheck {
    static let maxLength = 255

    func check(_ draft: inout AuthorizationDraft) throws(OAuthError) {
        guard OpenIDScope.isOpenID(draft.grantedScope) else { return }
        guard let nonce = draft.request.nonce.nonEmpty else {
            if draft.client.requireNonce {
                throw .invalidRequest("nonce is required for client '\(draft.client.id)'")
            }
            return
        }
        guard nonce.utf8.count <= Self.maxLength else {
            throw .invalidRequest("nonce is longer than \(Self.maxLength) bytes")
        }
        draft.nonce = nonce
    }
}
