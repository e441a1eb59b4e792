import Foundation

/// Everything SignInBridge persists, in the language of the domain, composed from one protocol per concern (users,
/// browser sessions, pending authorizations and consent, grants, codes, tokens, sign-in throttling), the way fosite
/// splits its storage.
///
/// **One call per step.** Each request a user or client makes is one store call (one transaction, and on PostgreSQL
/// one round trip): the authorize request with a signed-in session (`startAuthorization`), each interaction step
/// (`continueAuthorization`), each step at the authorization challenge endpoint (`advanceAuthSession`), the code
/// redemption with its token response and device session (`redeemAuthorizationCode(_:at:issuing:sessionContext:writes:)`),
/// a refresh (`refresh(_:at:reuseGrace:)`), the bootstrapper's token check (`bootstrap(_:at:)`), a revocation
/// (`revokeAccessToken` or `revokeRefreshToken`), an introspection (`accessTokenStatus` or `refreshTokenStatus`), a
/// grant that starts with its token (`createGrant(_:withAccessToken:)`), the broker's session redemption
/// (`redeemBrokerSession`), a Native SSO exchange (`exchangeDeviceSecret`) and a password change (`changePassword`,
/// with the hash computed before it). Three requests make a second call, each for a reason: a password sign-in
/// (`prepareSignIn` before bcrypt, `completeSignIn` after, so that no transaction stays open while the hash is
/// computed); a request carrying a DPoP proof or an attestation PoP spends its `jti` first (`useDPoPProof`, so a
/// replay is refused before anything is written); a challenge step after the host's app approved takes that approval
/// first (`takeAppToAppApproval`). `roundTrips` counts the calls that reached the database.
///
/// Every call is atomic: a single-use credential (authorization code, refresh token) is checked and consumed in the
/// same call, so that two server instances sharing one database can never both accept it (RFC 9700 §4.2.4).
/// Secrets never reach a store in clear: callers pass a `TokenDigest`. Time is always passed in (`at:`), never read
/// from a clock here, so lifetimes are testable without sleeping and every instance agrees on "now".
///
/// The contract is pinned down by `BridgeStoreTesting.StoreContract`, which every implementation runs unchanged.
public protocol Store: UserStore, BrowserSessionStore, AuthorizationStore, GrantStore, CodeStore, TokenStore,
    ThrottleStore, AppToAppStore, ExchangeStore, UpstreamStore, DPoPProofStore, PushedAuthorizationStore,
    AuthSessionStore, DeviceSSOStore, StoreChanges, Sendable
{
    /// Answers when the database can be read; throws otherwise (used by `/auth/health`).
    func checkHealth() async throws

    /// Finishes pending writes and releases the database. No other call may follow.
    func close() async throws

    /// How many times this store object has gone to its database: statements or transactions on SQLite, round
    /// trips on PostgreSQL. Published on `/metrics`; the benchmarks divide it by the flows they ran.
    var roundTrips: UInt64 { get }

    /// Bytes the database engine holds in this process's memory (SQLite's page caches and prepared statements), or
    /// nil when the database lives in another process. Published on `/metrics` so a soak can tell it from the rest.
    var engineMemoryBytes: Int? { get }

    /// Deletes what expired before `cutoff` and can no longer matter (tokens, codes, sessions), at most `limit` rows
    /// of each kind, in one transaction; returns the count. A count below `limit` means nothing of any kind is left;
    /// callers call again until then, so that no purge holds the writer, or its memory, for a whole backlog (ory
    /// Hydra's janitor deletes in batches for the same reason). Consumed codes and rotated refresh tokens are kept
    /// until they expire, so replays are still detected.
    @discardableResult
    func purgeExpired(before cutoff: Date, limit: Int) async throws -> Int
}

extension Store {
    public var engineMemoryBytes: Int? { nil }
}

/// Why a store call failed for a reason the caller can act on. Other database faults surface as the driver's error.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A record with this key exists already (a duplicate token digest, grant id or session).
    case duplicate(what: String)
    /// The record refers to something that does not exist (a token for an unknown grant).
    case missingReference(what: String)
    /// The store was closed.
    case closed
    /// The database cannot be reached now (refused, timed out, shutting down); the same call may work later, so the
    /// server answers 503 with `Retry-After` rather than 500.
    case unavailable(reason: String)

    public var description: String {
        switch self {
        case .duplicate(let what): "\(what) already exists"
        case .missingReference(let what): "\(what) does not exist"
        case .closed: "the store is closed"
        case .unavailable(let reason): "the database is unavailable: \(reason)"
        }
    }
}
