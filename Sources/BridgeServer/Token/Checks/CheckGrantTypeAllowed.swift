import SignInProtocol

/// RFC 6749 §5.2: a grant type the server does not implement is `unsupported_grant_type`; one it implements but this
/// client is not registered for is `unauthorized_client`.
struct CheckGrantTypeAllowed {
    static func check(_ grantType: String?, for client: BridgeConfiguration.Client) throws(OAuthError) {
        guard let grantType, !grantType.isEmpty else {
            throw OAuthError(.invalidRequest, description: "required parameter 'grant_type' is missing")
        }
        guard let grant = GrantKind(rawValue: grantType), GrantRegistry.grantTypes.contains(grantType) else {
            throw OAuthError(.unsupportedGrantType, description: "grant_type is not supported")
        }
        guard client.grants.contains(grant) else {
            throw OAuthError(.unauthorizedClient, description: "client '\(client.id)' may not use grant_type '\(grantType)'")
        }
    }
}
