import Foundation

/// Everything SignInBridge persists, in the language of the domain.
///
/// Each method is one atomic operation: a single-use credential (authorization code, refresh token) is checked and
/// consumed in the same call, so that two server instances sharing one database can never both accept it
/// (RFC 9700 §4.2.4, ROADMAP.md "Scale out"). Secrets never reach a store in clear: callers pass a `TokenDigest`.
///
/// Time is always passed in (`at:`), never read from a clock here, so lifetimes are testable without sleeping and
/// every implementation agrees on "now". The contract is pinned down by `StoreContractTests`, which any new
/// implementation (PostgreSQL next) must pass unchanged.
public protocol Store: SignInStore, Sendable {
    /// Answers when the database can be read; throws otherwise (used by `/auth/health`).
    func checkHealth() async throws

    /// Finishes pending writes and releases the database. No other call may follow.
    func close() async throws

    /// Grows whenever this store object commits a change that can make an earlier answer about a token, grant or
    /// user wrong: a revocation, a replay (which revokes), a user saved or deleted, a session context recorded.
    /// Callers that keep answers for a while (`RecentAnswers`) drop them when it moves. Changes made by another
    /// process sharing the database do not move it; those callers also bound how long they keep an answer.
    var changeCounter: UInt64 { get }

    // MARK: Users (the embedded default's local accounts)

    /// Creates the user or replaces every field of the user with the same id.
    func saveUser(_ user: UserRecord) async throws
    func user(id: String) async throws -> UserRecord?
    /// Looks a user up by sign-in name, ignoring ASCII case.
    func user(signInName: String) async throws -> UserRecord?

    // MARK: Grants (one user's authorization of one client; every token hangs off one)

    func createGrant(_ grant: GrantRecord) async throws
    func grant(id: GrantID) async throws -> GrantRecord?
    /// Stores the latest `X-WOPI-SessionContext` Office sent with this grant (PROTOCOL.md §1). False if unknown.
    @discardableResult
    func recordSessionContext(_ sessionContext: String, grant: GrantID) async throws -> Bool
    /// Revokes the grant and with it every access, WOPI and refresh token issued under it. False if unknown.
    @discardableResult
    func revokeGrant(_ id: GrantID, at now: Date) async throws -> Bool
    /// Revokes every grant of a user (a password change, Office manual test 10). Returns how many were active.
    @discardableResult
    func revokeGrants(userID: String, at now: Date) async throws -> Int

    // MARK: Access tokens (signed JWTs; the store keeps their id so they can be revoked)

    func recordAccessToken(_ token: AccessTokenRecord) async throws
    func accessTokenStatus(tokenID: String, at now: Date) async throws -> AccessTokenStatus
    @discardableResult
    func revokeAccessToken(tokenID: String, at now: Date) async throws -> Bool

    // MARK: WOPI access tokens (opaque, carried in EcosystemUrl and AccessTokenInfo)

    func issueWopiAccessToken(_ token: WopiAccessTokenRecord) async throws
    /// The token if it exists, has not expired and its grant is not revoked.
    func activeWopiAccessToken(_ digest: TokenDigest, at now: Date) async throws -> WopiAccessTokenRecord?

    // MARK: Authorization codes (single use)

    func issueAuthorizationCode(_ code: AuthorizationCodeRecord) async throws
    /// Consumes the code. A second redemption revokes the code's grant in the same call (RFC 9700 §4.2.4).
    func redeemAuthorizationCode(_ digest: TokenDigest, at now: Date) async throws -> CodeRedemption

    // MARK: Refresh tokens (stored hashed, rotated on use)

    func issueRefreshToken(_ token: RefreshTokenRecord) async throws

    // MARK: A token response's tokens

    /// Records the tokens of one token response (an access token and, when the client may refresh, a refresh token)
    /// in one atomic call: both or neither. Errors as `recordAccessToken` and `issueRefreshToken`.
    func recordTokenResponse(access: AccessTokenRecord, refresh: RefreshTokenRecord?) async throws
    /// Retires `presented` and stores `replacement` in its grant, atomically. Presenting an already rotated token
    /// revokes the whole grant (RFC 9700 §4.14.2, replay detection), unless it was rotated at most `reuseGrace`
    /// before `now`: then it is rotated again into another replacement, nothing is revoked, and the first rotation
    /// time is kept, so the window never grows. That is for a client that refreshes from several threads at once
    /// (the reuse interval of Okta and Auth0); 0 means none.
    func rotateRefreshToken(
        _ presented: TokenDigest, replacement: RefreshTokenRecord, at now: Date, reuseGrace: TimeInterval
    ) async throws -> RefreshRotation
    /// What the store knows about a refresh token at `now`, without changing anything (introspection, revocation,
    /// and the token endpoint's checks before it rotates). Never revokes: only presenting a token rotates it.
    func refreshTokenStatus(_ digest: TokenDigest, at now: Date) async throws -> RefreshTokenStatus

    // MARK: Browser sessions of the sign-in pages

    func createSession(_ session: SessionRecord) async throws
    func activeSession(_ digest: TokenDigest, at now: Date) async throws -> SessionRecord?
    /// Ends every session of a user; returns how many were active.
    @discardableResult
    func endSessions(userID: String, at now: Date) async throws -> Int

    // MARK: Housekeeping

    /// Deletes what expired before `cutoff` and can no longer matter (tokens, codes, sessions); returns the count.
    /// Consumed codes and rotated refresh tokens are kept until they expire, so replays are still detected.
    @discardableResult
    func purgeExpired(before cutoff: Date) async throws -> Int
}

extension Store {
    /// `rotateRefreshToken` without a reuse grace: a second presentation is always a replay.
    public func rotateRefreshToken(
        _ presented: TokenDigest, replacement: RefreshTokenRecord, at now: Date
    ) async throws -> RefreshRotation {
        try await rotateRefreshToken(presented, replacement: replacement, at: now, reuseGrace: 0)
    }
}

/// Why a store call failed for a reason the caller can act on. Database faults surface as the driver's own error.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A record with this key exists already (a duplicate token digest, grant id or session).
    case duplicate(what: String)
    /// The record refers to something that does not exist (a token for an unknown grant).
    case missingReference(what: String)
    /// The store was closed.
    case closed

    public var description: String {
        switch self {
        case .duplicate(let what): "\(what) already exists"
        case .missingReference(let what): "\(what) does not exist"
        case .closed: "the store is closed"
        }
    }
}
