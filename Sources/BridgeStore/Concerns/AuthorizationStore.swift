import Foundation

/// What the authorize endpoint and the interaction pages persist: pending requests, remembered consent, and the steps
/// that move a request from the browser to a code.
public protocol AuthorizationStore: Sendable {
    // MARK: Steps (one call each)

    /// The authorize request arrives (`GET /oauth2/authorize`). In one call: reads the browser's session, its user
    /// and their consent to the client; if `AuthorizationDecision` says the request can finish, creates the grant
    /// and the code (`issue`) and parks nothing; otherwise parks `pending` (unless `park` is false, for
    /// `prompt=none`, which never shows a page) and says what the user must do first.
    func startAuthorization(
        _ pending: PendingAuthorizationRecord, session: TokenDigest?, issue: CodeIssue, park: Bool, at now: Date
    ) async throws -> AuthorizationProgress

    /// An interaction step on a parked request (`GET /oauth2/interaction/{id}`, and the consent form with
    /// `consent: true`, which first adds the request's scopes to the user's remembered consent). Checks that the
    /// request is live and belongs to `browser`, then decides as `startAuthorization` does; when it finishes, the
    /// parked request is removed in the same call, so one request ends in at most one code.
    func continueAuthorization(
        _ interaction: TokenDigest, browser: TokenDigest?, session: TokenDigest?, consent: Bool, issue: CodeIssue,
        at now: Date
    ) async throws -> AuthorizationContinuation

    /// The read half of a password sign-in (`POST …/signin`): the parked request, the account by sign-in name and
    /// the recent failures under each throttle key, in one call. The write half is `completeSignIn` or
    /// `recordSignInFailure`, after the password hash is checked outside any transaction.
    func prepareSignIn(
        interaction: TokenDigest, signInName: String, throttleKeys: [String], failuresSince: Date, at now: Date
    ) async throws -> SignInPreparation

    /// The write half of a successful sign-in: the browser session is created and the account's failures forgotten.
    func completeSignIn(_ session: SessionRecord, clearingFailuresOf key: String) async throws

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
}

/// Grants: one user's authorization of one client; every code and token hangs off one.
public protocol GrantStore: Sendable {
    func createGrant(_ grant: GrantRecord) async throws
    /// The step of a grant that starts with its token response (client credentials, RFC 6749 §4.4; token exchange,
    /// RFC 8693): creates `grant` and records `access` (whose `grantID` is `grant.id`) in it, in one call: both or
    /// neither. Errors as `createGrant` and `recordAccessToken`.
    func createGrant(_ grant: GrantRecord, withAccessToken access: AccessTokenRecord) async throws
    func grant(id: GrantID) async throws -> GrantRecord?
    /// Stores the latest `X-WOPI-SessionContext` Office sent with this grant. False if unknown.
    @discardableResult
    func recordSessionContext(_ sessionContext: String, grant: GrantID) async throws -> Bool
    /// Revokes the grant and with it every access, WOPI and refresh token issued under it. False if unknown.
    @discardableResult
    func revokeGrant(_ id: GrantID, at now: Date) async throws -> Bool
    /// Revokes every grant of a user (a password change, Office manual test 10). Returns how many were active.
    @discardableResult
    func revokeGrants(userID: String, at now: Date) async throws -> Int
}
