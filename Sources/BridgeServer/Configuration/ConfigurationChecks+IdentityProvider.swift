import Foundation
import SignInProtocol

extension ConfigurationChecks {
    /// `identityProvider`: URLs that can be fetched over TLS (http only when `allowInsecureHTTP`, for tests), an
    /// audience for the profiles' JWT access tokens (RFC 9068 §4: the resource server checks `aud`), a secret for
    /// introspection (RFC 7662 §2.1).
    mutating func checkIdentityProvider(_ config: BridgeConfiguration) {
        guard let provider = config.identityProvider else { return }
        let base = "identityProvider"
        checkProviderURL(provider.issuer, at: "\(base).issuer", insecure: provider.allowInsecureHTTP)
        for (key, value) in [
            ("metadataURL", provider.metadataURL), ("authorizationEndpoint", provider.authorizationEndpoint),
            ("tokenEndpoint", provider.tokenEndpoint),
        ] {
            if let value { checkProviderURL(value, at: "\(base).\(key)", insecure: provider.allowInsecureHTTP) }
        }
        if provider.audience == nil && provider.introspection == nil {
            error(
                "\(base).audience",
                "is required for the \(provider.profile.rawValue) profile's JWT access tokens (RFC 9068 section 4): set the "
                    + "audience the provider puts in aud, or configure introspection for opaque tokens")
        }
        if let introspection = provider.introspection {
            if introspection.clientSecret == nil && introspection.clientSecretEnvironment == nil {
                error("\(base).introspection.clientSecret", "is required (or clientSecretEnvironment): introspection authenticates with client_secret_basic (RFC 7662 section 2.1)")
            }
            if introspection.clientSecret != nil && introspection.clientSecretEnvironment != nil {
                error("\(base).introspection.clientSecretEnvironment", "cannot be set beside clientSecret: choose one")
            }
        }
        if config.office.authorizationUri != nil || config.office.tokenIssuanceUri != nil {
            warning(
                "office.authorizationUri",
                "is not used with identityProvider: the challenge names the provider's endpoints "
                    + "(identityProvider.authorizationEndpoint and tokenEndpoint override discovery)")
        }
        if provider.profile == .entra, IdentityProviderProfile.EntraIssuer.isMultiTenant(provider.issuer) {
            warning(
                "\(base).issuer",
                "is Entra's multi-tenant endpoint: a token of any tenant whose iss matches its tid is accepted; "
                    + "use the tenant's own issuer to accept one tenant only")
        }
    }

    private mutating func checkProviderURL(_ string: String, at path: String, insecure: Bool) {
        // Entra's issuer templates carry `{tenantid}` (Microsoft identity platform, "Access tokens", "Validate the issuer").
        let probe = string.replacingOccurrences(of: "{tenantid}", with: "tenant")
        guard let url = URL(string: probe), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
            scheme == "https" || scheme == "http"
        else { return error(path, "expected an absolute https URL with a host, got \"\(string.prefix(200))\"") }
        if scheme == "http" && !insecure {
            error(path, "must be https (OAuth 2.0 requires TLS, RFC 6749 section 3.1); set allowInsecureHTTP: true only for a test provider")
        }
        if url.query != nil || url.fragment != nil { error(path, "must have no query or fragment") }
    }
}

extension IdentityProviderSettings {
    /// What `config check` says of this mode, in words for the person deploying it.
    public var summary: String {
        "identity provider \(issuer) (\(profile.rawValue) profile): /wopibootstrapper accepts its access tokens and its "
            + "challenge sends Office to it; WOPI access tokens, UrlSchemes, lint and conformance work as before. "
            + "App to app (a code minted for Office's client when a partner app asks) needs the other deployment: "
            + "SignInBridge as Office's authorization server with this provider under upstreams: (docs/identity-providers.md)"
    }
}
