import BridgeStore
import Foundation
import SignInProtocol

/// `grant_type=refresh_token` (RFC 6749 §6) with rotation, one store call: every use retires the presented token and
/// records a new one and the new access token in the same grant. A token of another client or a wider scope changes
/// nothing; presenting a retired token is a replay: the store revokes the whole grant (RFC 9700 §4.14.2). Rotation
/// applies to confidential clients too (the BCP allows it; one rule for everyone).
struct RefreshTokenGrant: GrantHandler {
    static let grant = GrantKind.refreshToken
    let store: any TokenStore
    let minter: TokenMinter
    /// `tokens.refreshReuseGraceSeconds`: see `Store.refresh`.
    let reuseGrace: TimeInterval

    init(_ dependencies: GrantDependencies) {
        store = dependencies.store
        minter = dependencies.minter
        reuseGrace = dependencies.refreshReuseGrace
    }

    func respond(to request: GrantRequest) async throws(OAuthError) -> TokenResponse {
        guard case .refreshToken(let token) = request.token.grant else {
            throw OAuthError(.unsupportedGrantType, description: "not a refresh_token request")
        }
        return try await refresh(
            token, scope: request.token.scope, client: request.client, sessionContext: request.sessionContext,
            proof: request.proof, at: request.now)
    }

    func refresh(
        _ presented: String, scope requested: String?, client: AuthenticatedClient, sessionContext: String?,
        proof: VerifiedDPoPProof?, at now: Date
    ) async throws(OAuthError) -> TokenResponse {
        try RefreshTokenBinding.check(presented, proof: proof, client: client)
        let (draft, access, secret) = minter.draft(
            withRefresh: true, binding: DPoPBinding(proof: proof, client: client), at: now)
        let request = RefreshRequest(
            presented: TokenDigest(of: presented), clientID: client.id, requestedScope: requested, issuing: draft,
            sessionContext: sessionContext)
        let outcome = try await storeCall { try await store.refresh(request, at: now, reuseGrace: reuseGrace) }
        switch outcome {
        case .rotated(_, let grant, let scope):
            let signed = try serverErrorOnFailure { try minter.signed(access, in: grant, scope: scope) }
            return TokenMinter.response(signed, issuedAt: now, refreshToken: secret, scope: scope)
        case .otherClient:
            throw OAuthError(.invalidGrant, description: "the refresh token was issued to another client")
        case .scopeTooWide(let record):
            // Names the value that was not granted.
            _ = try CheckScopeNarrowing.check(requested: requested, granted: record.scope)
            throw OAuthError(.invalidScope, description: "a refresh can only narrow the scope")
        case .replayed:
            throw OAuthError(.invalidGrant, description: "the refresh token was already used; the grant is now revoked")
        case .expired: throw OAuthError(.invalidGrant, description: "the refresh token has expired")
        case .revoked: throw OAuthError(.invalidGrant, description: "the refresh token's grant was revoked")
        case .unknown: throw OAuthError(.invalidGrant, description: "the refresh token is unknown")
        }
    }
}
