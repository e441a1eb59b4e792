import SignInProtocol

/// Authorization requests as the suite's parties send them.
public enum AuthorizeRequestBuilder {
    /// A state value the host must echo byte for byte (RFC 6749 §4.1.2), with characters that need encoding.
    static func newState() -> String { "conform-" + Base64URL.encode((0..<12).map { _ in UInt8.random(in: 0...255) }) + ".~" }

    /// Office's request (Microsoft's Office app-to-app docs, OAuth parameters): `rs`, `build` and `platform` beside
    /// the RFC 6749 §4.1.1 ones; no `scope`, as Office sends none.
    public static func office(
        authorizationURI: String, clientID: String, redirectURI: String, extra: [(String, String)] = []
    ) -> AuthorizeRequest {
        let state = newState()
        let fields = [
            ("client_id", clientID), ("response_type", "code"), ("redirect_uri", redirectURI), ("state", state),
            ("rs", "en-US"), ("build", "16.0.18025.20000"), ("platform", "iOS"),
        ] + extra
        return AuthorizeRequest(url: URLParts.appending(fields, to: authorizationURI), state: state)
    }

    /// A partner app's request with a PKCE challenge (RFC 7636 §4.3; S256 unless `method` says otherwise), or without
    /// when `pkceChallenge` is nil.
    public static func publicClient(
        authorizationURI: String, clientID: String, redirectURI: String, pkceChallenge: String?,
        method: PKCE.Method = .s256, extra: [(String, String)] = []
    ) -> AuthorizeRequest {
        let state = newState()
        var fields = [("client_id", clientID), ("response_type", "code"), ("redirect_uri", redirectURI), ("state", state)]
        if let pkceChallenge { fields += [("code_challenge", pkceChallenge), ("code_challenge_method", method.rawValue)] }
        return AuthorizeRequest(url: URLParts.appending(fields + extra, to: authorizationURI), state: state)
    }
}

/// An authorize URL and the state in it.
public struct AuthorizeRequest: Sendable {
    public var url: String
    public var state: String
}
