import BridgeStore
import Foundation
import JWTKit

/// An access token as handed to a client: the compact JWT and when it expires.
public struct IssuedAccessToken: Sendable {
    public let token: String
    public let tokenID: String
    public let grantID: GrantID
    public let expiresAt: Date
}

/// Signs access tokens (ES256, `kid` in the JWKS, `typ: at+jwt` per RFC 9068 §2.1) and records their id in the store,
/// so that any token can be revoked before it expires. Used by `signin-bridge token issue` now and by the token
/// endpoint of the OAuth issue later.
public struct AccessTokenIssuer: Sendable {
    let keys: SigningKeySet
    let store: any Store
    /// `iss`, and also `aud`: the tokens are for this host's own resources (the WOPI bootstrapper).
    let issuer: String
    let lifetime: TimeInterval

    public init(keys: SigningKeySet, store: any Store, issuer: String, lifetime: TimeInterval) {
        self.keys = keys
        self.store = store
        self.issuer = issuer
        self.lifetime = lifetime
    }

    /// Issues a token in `grant` (which must exist in the store).
    public func issue(in grant: GrantRecord, at now: Date) async throws -> IssuedAccessToken {
        // Whole seconds: JWT NumericDate and the store then agree exactly.
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let expiresAt = issuedAt.addingTimeInterval(lifetime.rounded(.down))
        let tokenID = UUID().uuidString.lowercased()
        let claims = AccessTokenClaims(
            iss: IssuerClaim(value: issuer), sub: SubjectClaim(value: grant.subject), aud: AudienceClaim(value: issuer),
            exp: ExpirationClaim(value: expiresAt), iat: IssuedAtClaim(value: issuedAt), jti: IDClaim(value: tokenID),
            client_id: grant.clientID, scope: grant.scope.isEmpty ? nil : grant.scope)
        var header = JWTHeader()
        header.typ = "at+jwt"
        let token = try await keys.collection.sign(claims, kid: JWKIdentifier(string: keys.signingKey.kid), header: header)
        try await store.recordAccessToken(
            AccessTokenRecord(tokenID: tokenID, grantID: grant.id, issuedAt: issuedAt, expiresAt: expiresAt))
        return IssuedAccessToken(token: token, tokenID: tokenID, grantID: grant.id, expiresAt: expiresAt)
    }
}
