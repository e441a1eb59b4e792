import Foundation

/// The embedded default's local accounts.
public protocol UserStore: Sendable {
    /// Creates the user or replaces every field of the user with the same id.
    func saveUser(_ user: UserRecord) async throws
    func user(id: String) async throws -> UserRecord?
    /// Looks a user up by sign-in name, ignoring ASCII case.
    func user(signInName: String) async throws -> UserRecord?
    /// Deletes the user and their remembered consents. False if there was no such user. Callers end the user's
    /// sessions and revoke their grants first (`endSessions`, `revokeGrants`).
    @discardableResult
    func deleteUser(id: String) async throws -> Bool

    /// A password change (one call): sets the user's password hash (computed before the call, so that no
    /// transaction waits for bcrypt), ends every session of the user and revokes every grant, and with it each
    /// access, WOPI and refresh token, so every app must sign in again. Nil, and nothing changed, for an unknown user.
    func changePassword(userID: String, passwordHash: String, at now: Date) async throws -> PasswordChange?
}

/// What a password change ended.
public struct PasswordChange: Sendable, Hashable {
    public var endedSessions: Int
    public var revokedGrants: Int

    public init(endedSessions: Int, revokedGrants: Int) {
        self.endedSessions = endedSessions
        self.revokedGrants = revokedGrants
    }
}

/// Signed-in browsers of the sign-in pages.
public protocol BrowserSessionStore: Sendable {
    func createSession(_ session: SessionRecord) async throws
    func activeSession(_ digest: TokenDigest, at now: Date) async throws -> SessionRecord?
    /// Ends every session of a user; returns how many were active.
    @discardableResult
    func endSessions(userID: String, at now: Date) async throws -> Int
}

/// Failed sign-ins, counted in the store so that every instance sharing it counts the same failures.
public protocol ThrottleStore: Sendable {
    /// Records one failed sign-in under each key (e.g. `account:alice@x`, `address:203.0.113.9`).
    func recordSignInFailure(keys: [String], at now: Date) async throws
    /// The number of failures recorded under each key at or after `since` (keys without failures are 0).
    func signInFailureCounts(keys: [String], since: Date) async throws -> [String: Int]
    /// Forgets the failures of `key` (after a successful sign-in of that account).
    func clearSignInFailures(key: String) async throws
}
