/// Another provider's discovery document, as the upstream sign-in and the host's identity provider mode read it:
/// OpenID Connect Discovery 1.0 §3, or RFC 8414 §2, where the endpoints and `jwks_uri` are optional (so each is here,
/// and each reader names what it lacks when it needs it).
struct ProviderMetadata: Sendable, Hashable, Decodable {
    var issuer: String
    var authorizationEndpoint: String?
    var tokenEndpoint: String?
    var jwksURI: String?
    var userinfoEndpoint: String?
    var introspectionEndpoint: String?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case jwksURI = "jwks_uri"
        case userinfoEndpoint = "userinfo_endpoint"
        case introspectionEndpoint = "introspection_endpoint"
    }

    /// `<issuer>/.well-known/openid-configuration` (Discovery §4.1: the issuer with any trailing slash removed).
    static func discoveryURL(issuer: String) -> String {
        (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + "/.well-known/openid-configuration"
    }
}
