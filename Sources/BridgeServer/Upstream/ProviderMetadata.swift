/// The parts of an OpenID Provider's discovery document we use (OpenID Connect Discovery 1.0 §3).
struct ProviderMetadata: Sendable, Hashable, Decodable {
    var issuer: String
    var authorizationEndpoint: String
    var tokenEndpoint: String
    var jwksURI: String
    var userinfoEndpoint: String?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case jwksURI = "jwks_uri"
        case userinfoEndpoint = "userinfo_endpoint"
    }

    /// `<issuer>/.well-known/openid-configuration` (§4.1: the issuer with any trailing slash removed).
    static func discoveryURL(issuer: String) -> String {
        (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + "/.well-known/openid-configuration"
    }
}
