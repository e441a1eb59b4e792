import BridgeStore
import Foundation
import JWTKit

/// Decides whether a presented access token may be used: signature by one of our keys, our issuer and audience,
/// not expired, and still active in the store (not revoked, grant not revoked). Any failure is just "invalid":
/// the bootstrapper answers every one with the same challenge, and the reason goes to the debug log only.
public struct AccessTokenVerifier: Sendable {
    public enum Rejection: Error, Sendable, Hashable {
        case malformedOrBadSignature
        case wrongIssuerOrAudience
        case expired
        case revoked
        case unknown
        /// The store could not be asked; the caller answers 503, never lets the token through.
        case storeUnavailable
        /// The store's answer failed for a reason of the server's own (`StoreUnavailable(classifying:)`): the
        /// caller answers 500, neither an outage nor a refusal of the token.
        case storeFault
    }

    let keys: SigningKeySet
    let store: any TokenStore & StoreChanges
    let issuer: String
    let verifiedClaims: VerifiedClaimsCache
    let statuses: RecentAnswers<String, AccessTokenStatus>

    /// `statusMaxAge`: how long a token's status read from the store may be reused (`RecentAnswers`).
    public init(keys: SigningKeySet, store: any TokenStore & StoreChanges, issuer: String, statusMaxAge: TimeInterval = 0) {
        self.keys = keys
        self.store = store
        self.issuer = issuer
        verifiedClaims = VerifiedClaimsCache()
        statuses = RecentAnswers(maxAge: statusMaxAge)
    }

    /// The token's record and grant when it is usable at `now`.
    public func verify(_ token: String, at now: Date) async throws(Rejection) -> (AccessTokenRecord, GrantRecord) {
        let verified = try await verifiedToken(token, at: now)
        return (verified.record, verified.grant)
    }

    /// The token's claims when its signature, issuer, audience and expiry are right, without asking the store (the
    /// bootstrapper asks it in its own step).
    func verifiedClaims(_ token: String, at now: Date) async throws(Rejection) -> AccessTokenClaims {
        if let remembered = try rememberedClaims(token, at: now) { return remembered }
        let snapshot = keys.snapshot
        let claims: AccessTokenClaims
        do {
            claims = try await snapshot.collection.verify(token, as: AccessTokenClaims.self)
        } catch {
            throw .malformedOrBadSignature
        }
        verifiedClaims.remember(claims, for: token, generation: snapshot.generation, at: now)
        try check(claims, at: now)
        return claims
    }

    /// `verifiedClaims` for a token whose signature was verified before (`VerifiedClaimsCache`), with nothing to
    /// await; nil for a token not seen yet.
    func rememberedClaims(_ token: String, at now: Date) throws(Rejection) -> AccessTokenClaims? {
        guard let claims = verifiedClaims.claims(for: token, generation: keys.snapshot.generation) else { return nil }
        try check(claims, at: now)
        return claims
    }

    private func check(_ claims: AccessTokenClaims, at now: Date) throws(Rejection) {
        guard claims.iss.value == issuer, claims.aud.value.contains(issuer) else { throw .wrongIssuerOrAudience }
        guard claims.exp.value > now else { throw .expired }
    }

    /// Like `verify`, with the claims introspection reports (the scope may be narrower than the grant's).
    func verifiedToken(_ token: String, at now: Date) async throws(Rejection) -> VerifiedAccessToken {
        let claims = try await verifiedClaims(token, at: now)
        let status = try await callStore(failingAs: Rejection.self) {
            try await statuses.value(for: claims.jti.value, store: store, at: now) {
                try await store.accessTokenStatus(tokenID: claims.jti.value, at: now)
            }
        }
        switch status {
        case .active(let record, let grant) where grant.subject == claims.sub.value && grant.clientID == claims.client_id:
            return VerifiedAccessToken(record: record, grant: grant, claims: claims)
        case .active, .unknown: throw .unknown
        case .expired: throw .expired
        case .revoked: throw .revoked
        }
    }
}

/// An access token that passed every check of `AccessTokenVerifier`.
struct VerifiedAccessToken: Sendable {
    let record: AccessTokenRecord
    let grant: GrantRecord
    let claims: AccessTokenClaims
}

extension AccessTokenVerifier.Rejection: StoreCallFailure {
    init(_ outage: StoreUnavailable) { self = .storeUnavailable }
    init(storeFault: any Error) { self = .storeFault }
}
