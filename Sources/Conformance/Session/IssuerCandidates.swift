import Foundation

/// The issuers whose discovery document may describe the authorization endpoint a bootstrapper's challenge names, in
/// the order the suite tries them. A bootstrapper names endpoints, not an issuer, and an issuer may carry a path
/// (OpenID Connect Discovery 1.0 §4: the document is at the issuer plus `/.well-known/openid-configuration`):
/// Keycloak's `…/realms/{realm}`, glewlwyd's `…/api/oidc`, django-oauth-toolkit's `…/o`. So the origin comes first
/// (the common case and the one request SignInBridge needs), then each path prefix of the endpoint, shortest first.
/// A candidate counts only when its document names the same `authorization_endpoint` and itself as `issuer` (§4.3).
struct IssuerCandidates: Sendable, Equatable {
    var issuers: [String]

    /// At most this many prefixes are tried: an endpoint path deeper than that is not an issuer's layout.
    static let maximumPrefixes = 6

    init(authorizationEndpoint: String) {
        guard let origin = URLParts.origin(authorizationEndpoint),
            let path = URLComponents(string: authorizationEndpoint)?.percentEncodedPath
        else {
            issuers = []
            return
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var found = [origin]
        // Every proper prefix of the path (the endpoint itself is not its issuer).
        for count in stride(from: 1, to: segments.count, by: 1).prefix(Self.maximumPrefixes) {
            found.append(origin + "/" + segments.prefix(count).joined(separator: "/"))
        }
        // Microsoft identity platform v2.0: `…/{tenant}/oauth2/v2.0/authorize` belongs to the issuer
        // `…/{tenant}/v2.0` ("OpenID Connect on the Microsoft identity platform", "Find your app's OpenID
        // configuration document URI").
        if let oauth2 = segments.firstIndex(of: "oauth2"), oauth2 > 0, segments.count > oauth2 + 1, segments[oauth2 + 1] == "v2.0" {
            found.append(origin + "/" + segments.prefix(oauth2).joined(separator: "/") + "/v2.0")
        }
        var seen = Set<String>()
        issuers = found.filter { seen.insert($0).inserted }
    }
}
