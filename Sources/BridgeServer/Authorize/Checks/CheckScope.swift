import SignInProtocol

/// Every requested scope is one the client may ask for; no scope means all of the client's (RFC 6749 §3.3 lets the
/// server apply a default, and Office sends `scope` empty or leaves it out).
struct CheckScope: AuthorizeCheck {
    func check(_ draft: inout AuthorizationDraft) throws(OAuthError) {
        draft.grantedScope = try Self.granted(
            draft.request.scopes, allowed: draft.client.scopes, default: draft.client.defaultScope)
    }

    /// The granted scope for `requested` (duplicates dropped), or the client's `default` when nothing was requested
    /// (RFC 6749 §3.3: "process the request using a pre-defined default value or fail the request indicating an
    /// invalid scope"; an empty default is the latter).
    static func granted(_ requested: [String], allowed: [String], default fallback: [String]) throws(OAuthError) -> String {
        var unique: [String] = []
        for scope in requested where !unique.contains(scope) { unique.append(scope) }
        if unique.contains(where: { !allowed.contains($0) }) {
            throw OAuthError(.invalidScope, description: "scope asks for a value this client may not request")
        }
        if unique.isEmpty {
            guard !fallback.isEmpty else { throw OAuthError(.invalidScope, description: "scope is required for this client") }
            return fallback.joined(separator: " ")
        }
        return unique.joined(separator: " ")
    }
}
