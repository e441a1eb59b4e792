import Foundation

/// `identityProvider:`: the host's own OpenID provider (Keycloak, Entra ID, Auth0, …) in front of which the
/// bootstrapper stands (docs/identity-providers.md). Microsoft's cloud redeems Office's code at that provider and calls
/// `/wopibootstrapper` with the token it got; "the host must verify that the provided token is valid" (Microsoft's
/// "WOPI bootstrapper" page, "Bootstrap").
public struct IdentityProviderSettings: Sendable, Codable, Hashable {
    /// Exactly as the tokens' `iss` says; for Entra's multi-tenant endpoints the `organizations` or `common` URL.
    public var issuer: String
    /// The `aud` an access token must name; nil only when `introspection` is set (then JWTs are refused).
    public var audience: String?
    public var profile: IdentityProviderProfile.Name
    public var requiredScope: String?
    public var clockSkewSeconds: Int
    public var metadataURL: String?
    /// The challenge's `authorization_uri`; nil: what discovery says (filled in at start, `IdentityProviderStartup`).
    public var authorizationEndpoint: String?
    /// The challenge's `tokenIssuance_uri`; nil: what discovery says.
    public var tokenEndpoint: String?
    public var allowInsecureHTTP: Bool
    public var introspection: Introspection?
    public var claims: Claims?
    public var userInfo: Bool

    /// RFC 7662 introspection of opaque tokens, the client authenticated with `client_secret_basic` (§2.1).
    public struct Introspection: Sendable, Codable, Hashable {
        public var clientId: String
        public var clientSecret: String?
        /// The environment variable that holds the secret, read at start instead of `clientSecret`.
        public var clientSecretEnvironment: String?
        public var cacheSeconds: Int
    }

    /// Which claims fill Office's `UserId`, `SignInName` and `UserFriendlyName`; nil members: the profile's.
    public struct Claims: Sendable, Codable, Hashable {
        public var userId: ClaimNameList?
        public var signInName: String?
        public var friendlyName: String?
    }

    /// One claim name or several, written as a YAML string or list (`sub`, `[tid, oid]`).
    public struct ClaimNameList: Sendable, Codable, Hashable {
        public var names: [String]

        public init(_ names: [String]) { self.names = names }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) {
                names = [one]
            } else {
                names = try container.decode([String].self)
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(names)
        }
    }
}

extension BridgeConfiguration {
    /// The challenge's `authorization_uri`: the host's provider in the external mode, else this server's own.
    public var challengeAuthorizationURI: String { identityProvider?.authorizationEndpoint ?? authorizationURI }
    /// The challenge's `tokenIssuance_uri`, likewise.
    public var challengeTokenIssuanceURI: String { identityProvider?.tokenEndpoint ?? tokenIssuanceURI }
}
