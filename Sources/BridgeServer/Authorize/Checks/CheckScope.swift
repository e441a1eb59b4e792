import SignInProtocol

/// Every requested scope is one the client may ask for; no scope means all of the client's (RFC 6749 §3.3 lets the
/// server apply a default, and Office sends `scope` empty or leaves it out).
struct CheckScope: AuthorizeCheck {
    func check(_ draft: inout AuthorizationDraft) throws(OAuthError) {
        draft.grantedScope = try Self.granted(draft.request.scopes, allowed: draft.client.scopes)
    }

    /// The granted scope for `requested` (duplicates dropped), or all of `allowed` when nothing was requested.
    static func granted(_ requested: [String], allowed: [String]) throws(OAuthError) -> String {
        var unique: [String] = []
        for scope in requested where !unique.contains(scope) { unique.append(scope) }
        if unique.contains(where: { !allowed.contains($0) }) {
            throw OAuthError(.invalidScope, description: "scope asks for a value this client may not request")
        }
        return (unique.isEmpty ? allowed : unique).joined(separator: " ")
    }
}
