import Foundation

/// Where the host provider's discovery document is looked for (`ProviderMetadata` is what is read there).
enum IdentityProviderDiscovery {
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
