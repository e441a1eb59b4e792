import SignInProtocol

/// RFC 6749 §6: a refresh may ask for less scope than was granted, never more (`invalid_scope`). No `scope`
/// means the scope of the refresh token.
struct CheckScopeNarrowing {
    /// The scope to issue.
    static func check(requested: String?, granted: String) throws(OAuthError) -> String {
        guard let requested, !requested.isEmpty else { return granted }
        let grantedValues = Set(granted.split(separator: " "))
        let requestedValues = requested.split(separator: " ")
        if requestedValues.contains(where: { !grantedValues.contains($0) }) {
            throw OAuthError(.invalidScope, description: "scope asks for a value that was not granted; a refresh can only narrow the scope")
        }
        // Unique, in the order asked for.
        var seen = Set<Substring>()
        return requestedValues.filter { seen.insert($0).inserted }.joined(separator: " ")
    }
}
