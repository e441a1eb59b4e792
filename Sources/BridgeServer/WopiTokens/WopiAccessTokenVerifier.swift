import BridgeStore
import Foundation

/// What a host's WOPI endpoint (CheckFileInfo, GetFile, …) asks of an access token Office sent it: sealed by this
/// server, not expired, for the file asked about, and its grant still active. The grant is read from the store, and
/// kept for `tokens.statusCacheMilliseconds` like the access tokens' status (`RecentAnswers`), so a document's burst
/// of WOPI calls costs one read.
public struct WopiAccessTokenVerifier: Sendable {
    public enum Rejection: Error, Sendable, Hashable {
        case malformed(WopiAccessTokenError)
        case expired
        /// The token is for another WOPI resource than the one asked about.
        case wrongResource
        /// The grant was revoked (by the user, the refresh token's replay detection, or `grant revoke`).
        case revoked
        case unknownGrant
        /// The store could not be asked; the caller answers 503, never lets the token through.
        case storeUnavailable
    }

    let seal: WopiAccessTokenSeal
    let store: any GrantStore & StoreChanges
    let grants: RecentAnswers<GrantID, GrantRecord?>

    public init(keys: SigningKeySet, store: any GrantStore & StoreChanges, statusMaxAge: TimeInterval = 0) {
        self.seal = WopiAccessTokenSeal(keys: keys)
        self.store = store
        self.grants = RecentAnswers(maxAge: statusMaxAge)
    }

    /// The token's claims and grant when it may be used at `now`. `wopiSource` is the WopiSrc of the request: a
    /// token handed out for a file (`GET_NEW_ACCESS_TOKEN`) is good only for that file. The ecosystem and root
    /// container tokens are for no one file (`claims.wopiSource` is nil); which endpoints take them is the host's call.
    public func verify(
        _ token: String, for wopiSource: String?, at now: Date
    ) async throws(Rejection) -> (claims: WopiAccessTokenClaims, grant: GrantRecord) {
        let claims: WopiAccessTokenClaims
        do { claims = try seal.open(token) } catch { throw .malformed(error) }
        guard claims.expiresAt > now else { throw .expired }
        if let bound = claims.wopiSource, bound != wopiSource { throw .wrongResource }
        let grant: GrantRecord?
        do {
            grant = try await grants.value(for: claims.grantID, store: store, at: now) {
                try await store.grant(id: claims.grantID)
            }
        } catch {
            throw .storeUnavailable
        }
        guard let grant else { throw .unknownGrant }
        guard grant.revokedAt == nil else { throw .revoked }
        return (claims, grant)
    }
}
