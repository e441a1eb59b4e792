import SignInProtocol

/// The grant types this server implements (RFC 6749 §4, RFC 8693): the one list the token endpoint's registry, a
/// client's `grants` in the configuration (whose schema enumerates the same strings, a test checks) and the
/// metadata's `grant_types_supported` are made of. Password (RFC 9700 §2.4: MUST NOT be used) and JWT bearer are
/// not here, so they are refused as `unsupported_grant_type` like any unknown string.
public enum GrantKind: String, Sendable, Hashable, Codable, CaseIterable {
    case authorizationCode = "authorization_code"
    case refreshToken = "refresh_token"
    case clientCredentials = "client_credentials"
    case tokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
}
