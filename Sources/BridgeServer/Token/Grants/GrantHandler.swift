import BridgeStore
import Foundation
import SignInProtocol

/// One `grant_type` of the token endpoint (RFC 6749 §4). A new grant is a new conforming type added to
/// `GrantRegistry.handlerTypes`; the token endpoint, the metadata's `grant_types_supported` and the per-client check
/// (`CheckGrantTypeAllowed`) all read that one list.
protocol GrantHandler: Sendable {
    /// The `grant_type` this handler answers.
    static var grant: GrantKind { get }
    init(_ dependencies: GrantDependencies)
    /// Answers a request whose `grant_type` is `Self.grant` from a client registered for it.
    func respond(to request: GrantRequest) async throws(OAuthError) -> TokenResponse
}

/// What the grant handlers may use; built once per token endpoint (`BridgeServices`).
struct GrantDependencies: Sendable {
    /// The concerns the grants use; each handler keeps the one it calls.
    let store: any CodeStore & TokenStore & DeviceSSOStore
    let minter: TokenMinter
    /// `tokens.refreshReuseGraceSeconds`: see `Store.refresh`.
    var refreshReuseGrace: TimeInterval = 0
    /// Checks subject tokens (token exchange).
    let verifier: AccessTokenVerifier
    /// Which clients share a merchant (token exchange).
    let merchants: MerchantClients
    /// What a code redemption's response carries besides its tokens; their own dependencies are theirs
    /// (`ContributorDependencies`).
    let contributors: TokenResponseContributors
    /// Checks the ID token a Native SSO exchange presents and signs its answer's (`NativeSSOExchange`); nil without
    /// OpenID Connect.
    let idTokens: IDTokenIssuer?
}

/// A token request after the shared steps: client authenticated, grant type allowed, form decoded.
struct GrantRequest: Sendable {
    let token: TokenRequest
    let client: AuthenticatedClient
    /// The `X-WOPI-SessionContext` header, checked.
    let sessionContext: String?
    let now: Date
    /// The request's DPoP proof, checked and recorded as used; nil when it sent none (RFC 9449 §5).
    var proof: VerifiedDPoPProof? = nil
}

/// The grants this server implements, in the order the metadata lists them. Password (RFC 9700 §2.4: MUST NOT be
/// used) and JWT bearer are absent, so they are refused as `unsupported_grant_type` like any unknown string.
struct GrantRegistry: Sendable {
    static let handlerTypes: [any GrantHandler.Type] = [
        AuthorizationCodeGrant.self, RefreshTokenGrant.self, ClientCredentialsGrant.self, TokenExchangeGrant.self,
    ]

    /// Every supported `grant_type` value, in the registry's order.
    static var grantTypes: [String] { handlerTypes.map { $0.grant.rawValue } }

    private let handlers: [String: any GrantHandler]

    init(_ dependencies: GrantDependencies) {
        var handlers: [String: any GrantHandler] = [:]
        for type in Self.handlerTypes { handlers[type.grant.rawValue] = type.init(dependencies) }
        self.handlers = handlers
    }

    func handler(for grantType: String) -> (any GrantHandler)? { handlers[grantType] }
}
