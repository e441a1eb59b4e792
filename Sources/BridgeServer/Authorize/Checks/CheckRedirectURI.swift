import SignInProtocol

/// `redirect_uri` is one of the client's registered URIs, matched exactly (RFC 9700 §2.1), with the loopback port
/// exemption for native (public) clients (RFC 8252 §7.3). Fails before anything may be redirected: the caller shows
/// the error on a page (RFC 6749 §4.1.2.1), so an attacker can never use us as an open redirector.
struct CheckRedirectURI: Sendable {
    let policy = RedirectURIPolicy()

    func redirectURI(for client: BridgeConfiguration.Client, in parameters: FormParameters) throws(OAuthError) -> String {
        let values = parameters.values(for: "redirect_uri")
        guard values.count <= 1 else { throw .invalidRequest("parameter 'redirect_uri' appears more than once") }
        do {
            return try policy.resolve(
                requested: values.first, registered: client.redirectUris, for: client.public ? .native : .web)
        } catch {
            throw error.oauthError
        }
    }
}
