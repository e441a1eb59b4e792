import Foundation

/// The shape of one kind of provider's access tokens: which JOSE `typ` values its access tokens carry, how its
/// `iss` is formed, which claims name the user, and Keycloak's payload `typ`. Values only; `ExternalClaimsCheck`
/// applies them.
public struct IdentityProviderProfile: Sendable, Hashable {
    public enum Name: String, Sendable, Codable, Hashable, CaseIterable {
        case generic, keycloak, entra, auth0
    }

    public enum IssuerRule: Sendable, Hashable {
        /// `iss` is the configured issuer, character for character (RFC 9068 §4, OpenID Connect Discovery §4.3).
        case exact
        /// Entra ID's v1 and v2 issuers of the token's tenant (`EntraIssuer`).
        case entra
    }

    public var name: Name
    /// The accepted `typ` header values, lower-cased and without `application/` (RFC 7515 §4.1.9: the prefix may be
    /// left out, and media types compare case-insensitively); nil: no `typ`.
    public var headerTypes: Set<String?>
    public var issuerRule: IssuerRule
    /// Claims whose values, joined with `:`, are Office's `UserId`; each must be there.
    public var userId: [String]
    /// The first of these claims present is the `SignInName`.
    public var signInName: [String]
    /// The first of these present is the `UserFriendlyName`.
    public var friendlyName: [String]
    /// Keycloak writes its token kind into the payload's `typ` (`Bearer`, `ID`, `Refresh`): an ID token whose `aud`
    /// happens to be the audience must not pass for an access token (RFC 8725 §3.11).
    public var payloadType: String?

    /// Plain OpenID provider: RFC 9068's `at+jwt`, and `JWT` or none, which most providers still send for access
    /// tokens (RFC 9068 §2.1 and §4 ask resource servers to check `typ`; refusing `JWT` would refuse nearly all of
    /// them). The audience check keeps an ID token (whose `aud` is a client id) out: configure an API audience.
    public static let generic = IdentityProviderProfile(
        name: .generic, headerTypes: ["at+jwt", "jwt", nil], issuerRule: .exact, userId: ["sub"],
        signInName: ["preferred_username", "email"], friendlyName: ["name"], payloadType: nil)

    /// Keycloak: `typ: JWT`, or `at+jwt` with the client's "Use RFC 9068 access token header type" switch on;
    /// `aud` may be an array holding `account` beside ours; payload `typ` `Bearer` (Keycloak Server Administration
    /// Guide, "Audience support").
    public static let keycloak = IdentityProviderProfile(
        name: .keycloak, headerTypes: ["jwt", "at+jwt"], issuerRule: .exact, userId: ["sub"],
        signInName: ["preferred_username"], friendlyName: ["name"], payloadType: "Bearer")

    /// Entra ID: `typ: JWT`; the user is `tid` + `oid` ("the only way to identify a user across tenants", Microsoft
    /// identity platform, "ID token claims reference"); `upn` (v1), `preferred_username` (v2), `unique_name` (v1).
    public static let entra = IdentityProviderProfile(
        name: .entra, headerTypes: ["jwt"], issuerRule: .entra, userId: ["tid", "oid"],
        signInName: ["upn", "preferred_username", "unique_name"], friendlyName: ["name"], payloadType: nil)

    /// Auth0: `at+jwt` with the RFC 9068 token profile, `JWT` with the Auth0 profile; `email` and `name` come from
    /// UserInfo (Auth0 docs, "Access Token Profiles"; the access token carries no profile claims by default).
    public static let auth0 = IdentityProviderProfile(
        name: .auth0, headerTypes: ["at+jwt", "jwt"], issuerRule: .exact, userId: ["sub"],
        signInName: ["email", "nickname"], friendlyName: ["name", "nickname"], payloadType: nil)

    public static func named(_ name: Name) -> IdentityProviderProfile {
        switch name {
        case .generic: .generic
        case .keycloak: .keycloak
        case .entra: .entra
        case .auth0: .auth0
        }
    }

    /// Whether a header `typ` (nil: absent) is one of this profile's.
    public func accepts(headerType: String?) -> Bool {
        guard let headerType else { return headerTypes.contains(nil) }
        var normalized = headerType.lowercased()
        if normalized.hasPrefix("application/") { normalized.removeFirst("application/".count) }
        return headerTypes.contains(normalized)
    }

    /// The profile with the configuration's claim names put over its own.
    public func overridden(by claims: IdentityProviderSettings.Claims?) -> IdentityProviderProfile {
        var profile = self
        if let userId = claims?.userId { profile.userId = userId.names }
        if let signInName = claims?.signInName { profile.signInName = [signInName] }
        if let friendlyName = claims?.friendlyName { profile.friendlyName = [friendlyName] }
        return profile
    }

    /// Whether the token's `iss` is the provider's, for the configured issuer and the token's `tid`.
    public func acceptsIssuer(_ iss: String, configured: String, tenant: String?) -> Bool {
        switch issuerRule {
        case .exact: return iss == configured
        case .entra: return EntraIssuer.accepted(configured: configured, tenant: tenant).contains(iss)
        }
    }

    /// Whether a discovery document's `issuer` may stand for the configured one (OpenID Connect Discovery §4.3: the
    /// same; Entra's multi-tenant documents name the `{tenantid}` template instead).
    public func acceptsDiscoveredIssuer(_ discovered: String, configured: String) -> Bool {
        discovered == configured
            || (issuerRule == .entra && (discovered.contains("{tenantid}") || EntraIssuer.isMultiTenant(configured)))
    }

    /// Entra ID's issuers (Microsoft identity platform, "Access tokens", "Validate the issuer"): v1 tokens say
    /// `https://sts.windows.net/{tid}/`, v2 `https://login.microsoftonline.com/{tid}/v2.0`, whichever endpoint
    /// handed them out (the API's `accessTokenAcceptedVersion` decides), so both forms of one tenant are its.
    public enum EntraIssuer {
        static let multiTenantSegments: Set<String> = ["organizations", "common", "consumers", "{tenantid}"]

        /// The configured issuer stands for any tenant: `organizations`, `common`, `consumers` or the template.
        public static func isMultiTenant(_ issuer: String) -> Bool {
            tenantSegment(of: issuer).map(multiTenantSegments.contains) ?? false
        }

        /// The tenant segment: the first path segment of the issuer's URL.
        static func tenantSegment(of issuer: String) -> String? {
            guard let schemeEnd = issuer.range(of: "://") else { return nil }
            let segments = issuer[schemeEnd.upperBound...].split(separator: "/", omittingEmptySubsequences: false)
            return segments.count >= 2 ? String(segments[1]) : nil
        }

        /// The `iss` values accepted: both forms of the configured tenant, or for a multi-tenant issuer both forms
        /// of the token's own `tid` (a token without `tid` then matches nothing).
        public static func accepted(configured: String, tenant: String?) -> Set<String> {
            guard let segment = tenantSegment(of: configured) else { return [configured] }
            let id: String
            if multiTenantSegments.contains(segment) {
                guard let tenant, !tenant.isEmpty, tenant.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                    return []
                }
                id = tenant
            } else {
                // A token of another tenant is not this tenant's, even with a matching `iss` form.
                if let tenant, tenant != segment { return [] }
                id = segment
            }
            let forms: Set<String> = ["https://sts.windows.net/\(id)/", "https://login.microsoftonline.com/\(id)/v2.0"]
            return multiTenantSegments.contains(segment) ? forms : forms.union([configured])
        }
    }
}
