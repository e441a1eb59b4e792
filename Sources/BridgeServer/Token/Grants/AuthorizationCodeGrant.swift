import BridgeStore
import Foundation
import SignInProtocol

/// `grant_type=authorization_code` (RFC 6749 §4.1.3). The store consumes the code atomically first, so two
/// concurrent redemptions can never both pass; a second redemption revokes the code's grant and with it every token
/// issued from the first one (RFC 9700 §4.2.4). The checks then run on the consumed code: a failed attempt burns it.
struct AuthorizationCodeGrant: Sendable {
    let store: any Store
    let minter: TokenMinter

    func exchange(
        code: String, redirectURI: String?, codeVerifier: String?, client: AuthenticatedClient,
        sessionContext: String?, at now: Date
    ) async throws(OAuthError) -> TokenResponse {
        let redemption = try await storeCall { try await store.redeemAuthorizationCode(TokenDigest(of: code), at: now) }
        let record: AuthorizationCodeRecord
        let grant: GrantRecord
        switch redemption {
        case .redeemed(let redeemedCode, let itsGrant): (record, grant) = (redeemedCode, itsGrant)
        case .replayed:
            throw OAuthError(.invalidGrant, description: "the code was already used; every token issued from it is now revoked")
        case .expired: throw OAuthError(.invalidGrant, description: "the code has expired")
        case .revoked: throw OAuthError(.invalidGrant, description: "the code's grant was revoked")
        case .unknown: throw OAuthError(.invalidGrant, description: "the code is unknown")
        }
        try CheckCodeIssuedToClient.check(record, client: client)
        try CheckRedirectURIMatches.check(record, presented: redirectURI)
        try CheckPKCE.check(record, verifier: codeVerifier, client: client)
        // No second look at the grant: were it revoked from now on (a concurrent replay), the tokens below would be
        // refused anyway, because every token's status is read through its grant.
        if let sessionContext, sessionContext != grant.sessionContext {
            _ = try await storeCall { try await store.recordSessionContext(sessionContext, grant: grant.id) }
        }
        let (access, accessRecord) = try await storeCall {
            try await minter.signedAccessToken(in: grant, scope: record.scope, at: now)
        }
        var refresh: (SecretToken, RefreshTokenRecord)?
        if client.client.grants.contains(TokenRequest.GrantType.refreshToken) {
            refresh = minter.refreshToken(grant: grant.id, client: client.id, scope: record.scope, at: now)
        }
        // One store write for both tokens: neither is handed out unless both are recorded.
        try await storeCall { try await store.recordTokenResponse(access: accessRecord, refresh: refresh?.1) }
        return TokenMinter.response(access, issuedAt: now, refreshToken: refresh?.0, scope: record.scope)
    }
}
