import BridgeStore
import Foundation
import SignInProtocol

/// `grant_type=refresh_token` (RFC 6749 §6) with rotation: every use retires the presented token and returns a new
/// one in the same grant. Presenting a retired token is a replay: the store revokes the whole grant
/// (RFC 9700 §4.14.2). Rotation applies to confidential clients too (the BCP allows it; one rule for everyone).
struct RefreshTokenGrant: Sendable {
    let store: any Store
    let minter: TokenMinter
    /// `tokens.refreshReuseGraceSeconds`: see `Store.rotateRefreshToken`.
    let reuseGrace: TimeInterval

    func refresh(
        _ presented: String, scope requested: String?, client: AuthenticatedClient, sessionContext: String?, at now: Date
    ) async throws(OAuthError) -> TokenResponse {
        let digest = TokenDigest(of: presented)
        // Read first, so a token of another client or an over-wide scope is refused without touching the token.
        let status = try await storeCall { try await store.refreshTokenStatus(digest, at: now) }
        let record: RefreshTokenRecord
        switch status {
        case .active(let found, _), .rotated(let found), .expired(let found), .revoked(let found): record = found
        case .unknown: throw OAuthError(.invalidGrant, description: "the refresh token is unknown")
        }
        guard record.clientID == client.id else {
            throw OAuthError(.invalidGrant, description: "the refresh token was issued to another client")
        }
        let scope = try CheckScopeNarrowing.check(requested: requested, granted: record.scope)
        // RFC 6749 §6: the new refresh token keeps the presented one's scope, even when the access token is narrower.
        let (secret, replacement) = minter.refreshToken(grant: record.grantID, client: client.id, scope: record.scope, at: now)
        let rotation = try await storeCall { try await store.rotateRefreshToken(digest, replacement: replacement, at: now, reuseGrace: reuseGrace) }
        switch rotation {
        case .rotated: break
        case .replayed:
            throw OAuthError(.invalidGrant, description: "the refresh token was already used; the grant is now revoked")
        case .expired: throw OAuthError(.invalidGrant, description: "the refresh token has expired")
        case .revoked: throw OAuthError(.invalidGrant, description: "the refresh token's grant was revoked")
        case .unknown: throw OAuthError(.invalidGrant, description: "the refresh token is unknown")
        }
        let grant: GrantRecord
        if case .active(_, let active) = status {
            grant = active
        } else {
            guard let found = try await storeCall({ try await store.grant(id: record.grantID) }) else {
                throw OAuthError(.invalidGrant, description: "the refresh token's grant is gone")
            }
            grant = found
        }
        if let sessionContext, sessionContext != grant.sessionContext {
            _ = try await storeCall { try await store.recordSessionContext(sessionContext, grant: grant.id) }
        }
        let access = try await storeCall { try await minter.accessToken(in: grant, scope: scope, at: now) }
        return TokenMinter.response(access, issuedAt: now, refreshToken: secret, scope: scope)
    }
}
