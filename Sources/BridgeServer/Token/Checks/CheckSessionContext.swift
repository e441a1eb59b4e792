import SignInProtocol

/// `X-WOPI-SessionContext` is Office's echo of our own `sc` value (Microsoft's Office app-to-app docs); the bootstrapper applies the
/// same bound, so anything longer is not ours.
struct CheckSessionContext {
    static let maxBytes = 1024

    static func check(_ header: String?) throws(OAuthError) -> String? {
        guard let header, !header.isEmpty else { return nil }
        guard header.utf8.count <= maxBytes else {
            throw OAuthError(.invalidRequest, description: "X-WOPI-SessionContext is over \(maxBytes) bytes")
        }
        return header
    }
}
