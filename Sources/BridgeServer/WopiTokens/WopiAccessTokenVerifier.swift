import BridgeStore
import Foundation

/// What a host's WOPI endpoint (CheckFileInfo, GetFile, …) asks of an access token Office sent it: sealed by this
/// server, not expired, for the file asked about, its grant still active and its user still there. The grant and
/// user are read from the store, and kept for `tokens.statusCacheMilliseconds` like the access tokens' status
/// (`RecentAnswers`), so a document's burst of WOPI calls costs one read.
public struct WopiAccessTokenVerifier: Sendable {
    public enum Rejection: Error, Sendable, Hashable {
        case malformed(WopiAccessTokenError)
        case expired
        /// The token is for another WOPI resource than the one asked about.
        case wrongResource
        /// The grant was revoked (by the user, the refresh token's replay detection, or `grant revoke`).
        case revoked
        case unknownGrant
        /// The grant's user was removed (`signin-bridge user remove`).
        case unknownUser
        /// The store could not be asked; the caller answers 503, never lets the token through.
        case storeUnavailable
        /// The store's answer failed for a reason of the server's own (`StoreUnavailable(classifying:)`): 500.
        case storeFault
    }

    /// A token that may be used: what it says, its grant and the grant's user.
    public struct Verified: Sendable, Hashable {
        public var claims: WopiAccessTokenClaims
        public var grant: GrantRecord
        public var user: UserRecord
    }

    /// The grant and its user as the store last said; nil user: the user is gone.
    struct GrantHolder: Sendable {
        var grant: GrantRecord
        var user: UserRecord?
    }

    let seal: WopiAccessTokenSeal
    let store: any GrantStore & UserStore & StoreChanges
    /// The one cache of WOPI token answers. Keyed by the grant of a token whose seal was checked first: the seal is
    /// one HMAC-SHA256 over the token, what a SHA-256 digest for a per-token cache would cost, so a per-token cache
    /// would save nothing and tokens of one grant (one per file) share an entry.
    let grants: RecentAnswers<GrantID, GrantHolder?>

    public init(keys: SigningKeySet, store: any GrantStore & UserStore & StoreChanges, statusMaxAge: TimeInterval = 0) {
        self.seal = WopiAccessTokenSeal(keys: keys)
        self.store = store
        self.grants = RecentAnswers(maxAge: statusMaxAge)
    }

    /// The token's claims, grant and user when it may be used at `now`. `wopiSource` is the WopiSrc of the request:
    /// a token handed out for a file (`GET_NEW_ACCESS_TOKEN`) is good only for that file. The ecosystem and root
    /// container tokens are for no one file (`claims.wopiSource` is nil); which endpoints take them is the host's call.
    public func verify(_ token: String, for wopiSource: String?, at now: Date) async throws(Rejection) -> Verified {
        let claims = try unexpiredClaims(token, at: now)
        if let bound = claims.wopiSource, bound != wopiSource { throw .wrongResource }
        return try await active(claims, at: now)
    }

    /// `verify` without the resource check, for introspection (RFC 7662), which reports the resource instead.
    public func verifyForAnyResource(_ token: String, at now: Date) async throws(Rejection) -> Verified {
        try await active(try unexpiredClaims(token, at: now), at: now)
    }

    /// The claims of a token this server sealed that has not expired at `now`; nothing read from the store.
    func unexpiredClaims(_ token: String, at now: Date) throws(Rejection) -> WopiAccessTokenClaims {
        let claims: WopiAccessTokenClaims
        do { claims = try seal.open(token) } catch { throw .malformed(error) }
        guard claims.expiresAt > now else { throw .expired }
        return claims
    }

    /// The grant and user the store last said for `grantID`, while that answer is still kept (younger than
    /// `statusMaxAge`, no store change counted since) and says the grant is active and its user there; nil otherwise.
    /// Nothing is read from the store.
    func keptActiveGrant(_ grantID: GrantID, changeCounter: UInt64, at now: Date) -> (GrantRecord, UserRecord)? {
        guard case let holder?? = grants.value(for: grantID, changeCounter: changeCounter, at: now),
            holder.grant.revokedAt == nil, let user = holder.user
        else { return nil }
        return (holder.grant, user)
    }

    private func active(_ claims: WopiAccessTokenClaims, at now: Date) async throws(Rejection) -> Verified {
        // A user of the host's identity provider has no grant here: the sealed token carries the user (`ExternalGrant`).
        if let external = ExternalGrant(claims.grantID) {
            return Verified(claims: claims, grant: external.grant(at: claims.issuedAt), user: external.user)
        }
        let holder = try await callStore(failingAs: Rejection.self) {
            try await grants.value(for: claims.grantID, store: store, at: now) {
                guard let grant = try await store.grant(id: claims.grantID) else { return nil }
                return GrantHolder(grant: grant, user: try await store.user(id: grant.userID))
            }
        }
        guard let holder else { throw .unknownGrant }
        guard holder.grant.revokedAt == nil else { throw .revoked }
        guard let user = holder.user else { throw .unknownUser }
        return Verified(claims: claims, grant: holder.grant, user: user)
    }
}

extension WopiAccessTokenVerifier.Rejection: StoreCallFailure {
    init(_ outage: StoreUnavailable) { self = .storeUnavailable }
    init(storeFault: any Error) { self = .storeFault }
}
