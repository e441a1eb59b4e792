/// The part of the protocol a check walks through; `--only` selects groups.
public enum CheckGroup: String, Sendable, Codable, CaseIterable {
    /// The unauthenticated `401` of the bootstrapper and its `WWW-Authenticate` challenge.
    case challenge
    /// Bad credentials at the bootstrapper: each answered with `401` and the challenge.
    case unauthorized
    /// Office's authorize request and the sign-in up to the redirect URI.
    case authorize
    /// The token endpoint's answer to the code.
    case token
    /// The bootstrapper with a valid token, and its ecosystem operations.
    case bootstrap
    /// The WOPI ecosystem at the bootstrap's `EcosystemUrl`: CheckEcosystem and GetRootContainer, when served.
    case ecosystem
    /// Refresh token rotation and reuse.
    case refresh
    /// Authorization code reuse.
    case code
    /// Redirect URI matching, as an attacker would probe it.
    case redirect
    /// PKCE for a partner app's public client.
    case pkce
    /// RFC 8414 authorization server metadata.
    case metadata
    /// OpenID Connect: discovery, the ID token, userinfo.
    case openid
    /// Vipps-style app-to-app sign-in (`requested_flow=app_to_app`).
    case apptoapp
    /// One-time exchange codes at `/oauth/exchange` (Schibsted SPiD style), when the host offers them.
    case exchange
    /// DPoP (RFC 9449): proofs at the token endpoint, bound refresh tokens, bound tokens at userinfo; when advertised.
    case dpop
    /// Pushed authorization requests (RFC 9126), when the host advertises its PAR endpoint.
    case par
    /// OAuth 2.0 for First-Party Applications: the authorization challenge endpoint, when the host advertises it.
    case firstparty
    /// OpenID Connect Native SSO for Mobile Apps: `device_sso` and the token exchange, when the host advertises it.
    case nativesso
    /// Attestation-based client authentication at the token endpoint, when the host advertises it.
    case attestation
    /// The association files that open the partner apps' https callbacks in the apps.
    case links
    /// Every OAuth error the run provoked, against the RFCs' codes and characters.
    case errors

    /// Groups that only a WOPI bootstrapper can answer; skipped for a host named by `--issuer`.
    public var needsBootstrapper: Bool { self == .challenge || self == .bootstrap || self == .ecosystem }

    /// What the group means, for `--help`, the report and docs.
    public var summary: String {
        switch self {
        case .challenge: "the 401 of the bootstrapper and its Bearer challenge"
        case .unauthorized: "missing, blank, malformed, expired and foreign tokens get 401 with the challenge"
        case .authorize: "Office's authorize request, sign-in, and the redirect back"
        case .token: "the token response to Office's code redemption"
        case .bootstrap: "the bootstrapper with a token: the JSON and the ecosystem operations"
        case .ecosystem: "CheckEcosystem and GetRootContainer at the EcosystemUrl, an altered token refused (when served)"
        case .refresh: "refresh token rotation and reuse detection"
        case .code: "an authorization code is single use"
        case .redirect: "redirect URIs are matched exactly"
        case .pkce: "PKCE for the public client"
        case .metadata: "RFC 8414 metadata agrees with the challenge"
        case .openid: "OpenID Connect discovery, ID token claims, stable sub, userinfo"
        case .apptoapp: "requested_flow=app_to_app: app_callback_uri matched exactly"
        case .exchange: "/oauth/exchange: the bearer challenge, codes single use"
        case .dpop: "DPoP proofs checked at the token endpoint and userinfo, refresh tokens bound (when advertised)"
        case .par: "pushed authorization requests: 201 and request_uri, client authentication, single use (when advertised)"
        case .firstparty: "the authorization challenge endpoint: codes for first-party apps only, PKCE-bound, auth_session checked (when advertised)"
        case .nativesso: "device_sso: device_secret, ds_hash and sid, the second app's token exchange, secrets checked (when advertised)"
        case .attestation: "attest_jwt_client_auth: attester, expiry, PoP key and audience, client_id checked (when advertised)"
        case .links: "apple-app-site-association and assetlinks.json open the partner apps' https callbacks"
        case .errors: "error codes from the RFCs' lists, error_description within RFC 6749's characters"
        }
    }
}
