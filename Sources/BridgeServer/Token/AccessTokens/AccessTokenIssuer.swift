import BridgeStore
import Foundation
import JWTKit

/// An access token as handed to a client: the compact JWT and when it expires.
public struct IssuedAccessToken: Sendable {
    public let token: String
    public let tokenID: String
    public let grantID: GrantID
    public let expiresAt: Date
    /// `Bearer`, or `DPoP` for a token bound to a key (RFC 9449 §5).
    public let tokenType: String
}

/// Signs access tokens (ES256, `kid` in the JWKS, `typ: at+jwt` per RFC 9068 §2.1) and records their id in the store,
/// so that any token can be revoked before it expires. The token endpoint drafts, records and signs in its own store
/// step (`TokenMinter`), as does the session broker; `issue` is for grants that start with their token (client
/// credentials, token exchange, `signin-bridge token issue`).
public struct AccessTokenIssuer: Sendable {
    let keys: SigningKeySet
    let store: any GrantStore
    /// `iss`, and also `aud`: the tokens are for this host's own resources (the WOPI bootstrapper).
    let issuer: String
    let lifetime: TimeInterval
    /// The current key's signer, read per token so a rotation applies at once.
    var signer: AccessTokenSigner { keys.snapshot.accessTokenSigner }

    public init(keys: SigningKeySet, store: any GrantStore, issuer: String, lifetime: TimeInterval) {
        self.keys = keys
        self.store = store
        self.issuer = issuer
        self.lifetime = lifetime
    }

    /// Issues a token in `grant`, which this creates: one store step, the grant and the token or neither.
    /// `boundTo`: the thumbprint of the DPoP key the token is bound to (RFC 9449 §6.1).
    public func issue(inNewGrant grant: GrantRecord, at now: Date, boundTo keyThumbprint: String? = nil) async throws
        -> IssuedAccessToken
    {
        let draft = self.draft(at: now, boundTo: keyThumbprint)
        let issued = try sign(draft, in: grant)
        try await store.createGrant(grant, withAccessToken: draft.record(in: grant.id))
        return issued
    }

    /// The id and times of a token to be signed once its grant is known (the store step that finds the grant also
    /// records the token).
    func draft(at now: Date, boundTo keyThumbprint: String? = nil) -> AccessTokenDraft {
        // Whole seconds: JWT NumericDate and the store then agree exactly.
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        return AccessTokenDraft(
            tokenID: UUID().uuidString.lowercased(), issuedAt: issuedAt, expiresAt: issuedAt.addingTimeInterval(lifetime.rounded(.down)),
            keyThumbprint: keyThumbprint)
    }

    /// Signs the drafted token in `grant`, whose scope the token carries.
    func sign(_ draft: AccessTokenDraft, in grant: GrantRecord) throws -> IssuedAccessToken {
        let claims = AccessTokenClaims(
            iss: IssuerClaim(value: issuer), sub: SubjectClaim(value: grant.subject), aud: AudienceClaim(value: issuer),
            exp: ExpirationClaim(value: draft.expiresAt), iat: IssuedAtClaim(value: draft.issuedAt),
            jti: IDClaim(value: draft.tokenID), client_id: grant.clientID, scope: grant.scope.isEmpty ? nil : grant.scope,
            cnf: draft.keyThumbprint.map(AccessTokenClaims.Confirmation.init(jkt:)))
        return IssuedAccessToken(
            token: try signer.sign(claims), tokenID: draft.tokenID, grantID: grant.id, expiresAt: draft.expiresAt,
            tokenType: claims.tokenType)
    }
}

/// An access token's id and times, chosen before it is signed.
struct AccessTokenDraft: Sendable {
    let tokenID: String
    let issuedAt: Date
    let expiresAt: Date
    /// The DPoP key the token will be bound to (`cnf.jkt`); nil for a bearer token.
    var keyThumbprint: String? = nil

    /// What the store step that creates `grant` records of this token.
    func record(in grant: GrantID) -> AccessTokenRecord {
        AccessTokenRecord(tokenID: tokenID, grantID: grant, issuedAt: issuedAt, expiresAt: expiresAt)
    }
}
