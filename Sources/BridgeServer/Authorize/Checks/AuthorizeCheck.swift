import SignInProtocol

/// What the authorize checks know about a request once its client and redirect URI are trusted. Every error from
/// here on goes back to `redirectURI` (RFC 6749 §4.1.2.1); errors before it are shown on a page.
struct AuthorizationDraft: Sendable {
    let client: BridgeConfiguration.Client
    /// The registered URI the request resolved to (with a loopback port if the client chose one).
    let redirectURI: String
    let request: AuthorizationRequest
    /// Filled in by `CheckScope`: what the user is asked to grant.
    var grantedScope: String = ""
    /// Filled in by `CheckPKCEChallenge`.
    var pkce: PKCE.Challenge?
    /// Filled in by `CheckPrompt`.
    var prompt: Set<String> = []
    var maxAge: Int?
    /// Filled in by `CheckNonce` for OpenID Connect requests.
    var nonce: String?
    /// Filled in by `CheckAppToApp` for `requested_flow=app_to_app`.
    var appCallbackURI: String?
}

/// One rule of the authorization endpoint, in the spirit of node-oidc-provider's lib/actions/authorization/:
/// a small named type with one job and its own test. Throws the RFC 6749 error to send back.
protocol AuthorizeCheck: Sendable {
    func check(_ draft: inout AuthorizationDraft) throws(OAuthError)
}
