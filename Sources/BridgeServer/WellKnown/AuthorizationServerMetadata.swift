import Foundation
import SignInProtocol

/// RFC 8414 authorization server metadata, which is also the OpenID Provider metadata (OpenID Connect Discovery 1.0
/// §3): one value served at both `/.well-known/oauth-authorization-server` and `/.well-known/openid-configuration`,
/// so the two can never disagree (RFC 8414 §2 allows the OpenID members). Only what this server implements is listed.
struct AuthorizationServerMetadata: Encodable {
    var issuer: String
    var jwks_uri: String
    /// RFC 8414 §2 requires the member; empty until the authorize endpoint exists.
    var response_types_supported: [String] = []
    var grant_types_supported: [String] = []
    var authorization_endpoint: String?
    var token_endpoint: String?
    var code_challenge_methods_supported: [String]?
    var token_endpoint_auth_methods_supported: [String]?
    var revocation_endpoint: String?
    var revocation_endpoint_auth_methods_supported: [String]?
    var introspection_endpoint: String?
    var introspection_endpoint_auth_methods_supported: [String]?
    // RFC 9126 §5.
    var pushed_authorization_request_endpoint: String
    var require_pushed_authorization_requests: Bool
    /// RFC 9207 §3: every authorization response carries `iss` (`AuthorizationResponse.issued(by:)`).
    var authorization_response_iss_parameter_supported = true
    // OpenID Connect Discovery 1.0 §3.
    var userinfo_endpoint: String
    var end_session_endpoint: String
    var scopes_supported: [String]
    var claims_supported: [String]
    var subject_types_supported = ["public"]
    var id_token_signing_alg_values_supported = IDTokenIssuer.algorithms
    var response_modes_supported = ["query"]
    var prompt_values_supported: [String]
    var claims_parameter_supported = false
    var request_parameter_supported = false
    var request_uri_parameter_supported = false
    /// RFC 9449 §5.1: the algorithms a DPoP proof may use.
    var dpop_signing_alg_values_supported = DPoPProofKey.algorithms
    /// draft-ietf-oauth-first-party-apps-04 §8: only when `firstPartyApps.enabled`.
    var authorization_challenge_endpoint: String?
    /// OpenID Connect Native SSO for Mobile Apps 1.0 draft 07 §5; absent when no client has an `ssoGroup`.
    var native_sso_supported: Bool?
    /// draft-ietf-oauth-attestation-based-client-auth-11 §8, only when an attester is configured: what the
    /// attestation and its PoP may be signed with (`DPoPProofKey` verifies both).
    var client_attestation_signing_alg_values_supported: [String]?
    var client_attestation_pop_signing_alg_values_supported: [String]?

    init(configuration: BridgeConfiguration) {
        issuer = configuration.issuer
        jwks_uri = configuration.issuerURL(path: "/.well-known/jwks.json")
        authorization_endpoint = configuration.authorizationURI
        response_types_supported = ["code"]
        // What TokenEndpoint, RevocationEndpoint and IntrospectionEndpoint do.
        token_endpoint = configuration.issuerURL(path: TokenEndpointPaths.canonical)
        grant_types_supported = GrantRegistry.grantTypes
        code_challenge_methods_supported = configuration.authorize.allowPlainPKCE ? ["S256", "plain"] : ["S256"]
        var authMethods = ["client_secret_basic", "client_secret_post", "none"]
        if !configuration.clientAttestation.attesters.isEmpty {
            authMethods.append(ClientAttestationNames.authenticationMethod)
            client_attestation_signing_alg_values_supported = DPoPProofKey.algorithms
            client_attestation_pop_signing_alg_values_supported = DPoPProofKey.algorithms
        }
        token_endpoint_auth_methods_supported = authMethods
        revocation_endpoint = configuration.issuerURL(path: OAuthRoutes.revocationPath)
        revocation_endpoint_auth_methods_supported = authMethods
        introspection_endpoint = configuration.issuerURL(path: OAuthRoutes.introspectionPath)
        introspection_endpoint_auth_methods_supported = authMethods
        pushed_authorization_request_endpoint = configuration.issuerURL(path: PushedAuthorizationEndpoint.path)
        require_pushed_authorization_requests = configuration.authorize.requirePushedAuthorizationRequests
        userinfo_endpoint = configuration.issuerURL(path: UserInfoEndpoint.path)
        end_session_endpoint = configuration.issuerURL(path: EndSessionEndpoint.path)
        // The OpenID scopes plus every scope some client may ask for (`wopi` by default).
        var scopes = OpenIDScope.supportedScopes
        for scope in configuration.clients.flatMap(\.scopes) where !scopes.contains(scope) { scopes.append(scope) }
        scopes_supported = scopes
        claims_supported = OpenIDScope.supportedClaims
        native_sso_supported = configuration.clients.contains { $0.ssoGroup != nil } ? true : nil
        prompt_values_supported = CheckPrompt.known.sorted()
        if configuration.firstPartyApps.enabled {
            authorization_challenge_endpoint = configuration.issuerURL(path: AuthorizationChallengeEndpoint.path)
        }
    }
}
