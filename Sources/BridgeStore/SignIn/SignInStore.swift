import Foundation

/// What the authorize endpoint and the sign-in pages persist, beside the token side of `Store`. A separate
/// protocol (that `Store` refines) so that the two halves of the OAuth server evolve in different files.
public protocol SignInStore: Sendable {
    // MARK: Users

    /// Deletes the user and their remembered consents. False if there was no such user. Callers end the user's
    /// sessions and revoke their grants first (`endSessions`, `revokeGrants`).
    @discardableResult
    func deleteUser(id: String) async throws -> Bool

    // MARK: Pending authorization requests

    func savePendingAuthorization(_ record: PendingAuthorizationRecord) async throws
    /// The record if it exists and has not expired.
    func pendingAuthorization(_ digest: TokenDigest, at now: Date) async throws -> PendingAuthorizationRecord?
    /// Removes and returns the record in one step, so that one request can end in at most one code.
    func takePendingAuthorization(_ digest: TokenDigest, at now: Date) async throws -> PendingAuthorizationRecord?

    // MARK: Consent

    /// Creates or replaces the consent of `userID` to `clientID`.
    func saveConsent(_ consent: ConsentRecord) async throws
    func consent(userID: String, clientID: String) async throws -> ConsentRecord?

    // MARK: Sign-in throttling (in the store, so that every instance sharing it counts the same failures)

    /// Records one failed sign-in under each key (e.g. `account:alice@x`, `address:203.0.113.9`).
    func recordSignInFailure(keys: [String], at now: Date) async throws
    /// The number of failures recorded under each key at or after `since` (keys without failures are 0).
    func signInFailureCounts(keys: [String], since: Date) async throws -> [String: Int]
    /// Forgets the failures of `key` (after a successful sign-in of that account).
    func clearSignInFailures(key: String) async throws
}
