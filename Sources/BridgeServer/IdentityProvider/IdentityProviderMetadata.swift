import Foundation

/// The host provider's discovery document: OpenID Connect Discovery 1.0 §3, or RFC 8414 §2 (whose `jwks_uri` and
/// endpoints are optional, so each is here; the verifier names what it lacks when it needs it).
struct IdentityProviderMetadata: Sendable, Hashable, Decodable {
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

    /// Where to look, in order: the configured `metadataURL`, else OpenID Connect Discovery §4.1's
    /// `<issuer>/.well-known/openid-configuration`, then RFC 8414 §3.1's `/.well-known/oauth-authorization-server`
    /// inserted between the host and the issuer's path.
    static func candidateURLs(for settings: IdentityProviderSettings) -> [String] {
        if let configured = settings.metadataURL { return [configured] }
        let issuer = settings.issuer
        var urls = [ProviderMetadata.discoveryURL(issuer: issuer)]
        if let schemeEnd = issuer.range(of: "://") {
            let rest = issuer[schemeEnd.upperBound...]
            let hostEnd = rest.firstIndex(of: "/") ?? rest.endIndex
            var path = String(rest[hostEnd...])
            if path.hasSuffix("/") { path.removeLast() }
            urls.append(String(issuer[..<hostEnd]) + "/.well-known/oauth-authorization-server" + path)
        }
        return urls
    }
}
