import SignInProtocol

/// Every requested scope is one the client may ask for; no scope means all of the client's (RFC 6749 §3.3 lets the
/// server apply a default, and Office sends `scope` empty or leaves it out).
struct CheckScope: AuthorizeCheck {
    func check(_ draft: inout AuthorizationDraft) throws(OAuthError) {
        let allowed = draft.client.scopes
        var requested: [String] = []
        for scope in draft.request.scopes where !requested.contains(scope) { requested.append(scope) }
        if requested.contains(where: { !allowed.contains($0) }) {
            throw OAuthError(.invalidScope, description: "scope asks for a value this client may not request")
        }
        draft.grantedScope = (requested.isEmpty ? allowed : requested).joined(separator: " ")
    }
}
