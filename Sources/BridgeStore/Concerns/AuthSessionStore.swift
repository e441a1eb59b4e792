import Foundation

/// The authorization challenge endpoint's sessions (draft-ietf-oauth-first-party-apps-04 §5.3.1): a first-party app
/// signs in without a browser, one request per step, each answer that continues carrying a new `auth_session`. The
/// store keeps each by the digest of its value, takes it once (a replayed value is unknown), and never takes one
/// for another client or for a request without the DPoP key it is bound to (§9.6.1), so a stolen value is worth
/// nothing and the rightful holder keeps it.
public protocol AuthSessionStore: Sendable {
    func saveAuthSession(_ record: AuthSessionRecord) async throws

    /// Takes the auth session under `digest` for `clientID` presenting `dpopKeyThumbprint` (one call): `.taken` once
    /// (the record is gone after), or why not, leaving the record as it was unless it is expired.
    func takeAuthSession(
        _ digest: TokenDigest, clientID: String, dpopKeyThumbprint: String?, at now: Date
    ) async throws -> AuthSessionTaking

    /// The client the auth session under `digest` was issued to, nil when none is kept; changes nothing. A later
    /// challenge request may name its client by its `auth_session` alone (draft §5.1), so the endpoint asks this
    /// before it authenticates the client, and `takeAuthSession` still checks the client it authenticated.
    func authSessionClient(_ digest: TokenDigest) async throws -> String?

    /// What `takeAuthSession` would answer, changing nothing (expired records stay too): the chain a step reads
    /// before it checks a password or the host's app's decision outside any transaction. `advanceAuthSession` then
    /// takes it.
    func authSession(
        _ digest: TokenDigest, clientID: String, dpopKeyThumbprint: String?, at now: Date
    ) async throws -> AuthSessionTaking

    /// One step of a chain (draft §5.3.1: each answer that continues carries a new `auth_session`), in one
    /// transaction: takes `presented` for `next.clientID` and `next.dpopKeyThumbprint` as `takeAuthSession` does
    /// (nil for a chain's first step), continues `next.interaction` as `continueAuthorization` does with
    /// `next.browser` and `next.session` (no consent), and saves `next` unless the code was issued or the request is
    /// gone. Refused or failed, nothing changes: the presented value still works.
    func advanceAuthSession(
        _ presented: TokenDigest?, to next: AuthSessionRecord, issue: CodeIssue, at now: Date
    ) async throws -> AuthSessionAdvance

    /// The host's app decided the app-to-app request under `reference` that the challenge endpoint parked for the
    /// request `interaction` (one call): when it was approved and not yet used, marks it used and creates `session`
    /// for the approving user, as the browser's `resume_uri` does (`AppToAppStore.resumeAppToApp`).
    func takeAppToAppApproval(
        _ reference: TokenDigest, interaction: TokenDigest, session: TokenDigest, sessionExpiresAt: Date, at now: Date
    ) async throws -> AppToAppApprovalTaking
}

/// One step's `auth_session`: which client it is for, the parked authorization request it continues (whose browser
/// binding it stands in for, as a browser cookie does on the sign-in pages), and what the steps so far established.
public struct AuthSessionRecord: Sendable, Hashable {
    public var digest: TokenDigest
    public var clientID: String
    /// The parked request (`PendingAuthorizationRecord.digest`).
    public var interaction: TokenDigest
    /// The parked request's `browserDigest`: what `continueAuthorization` checks.
    public var browser: TokenDigest
    /// The sign-in session once the user signed in (a password, or the host's app approving).
    public var session: TokenDigest?
    /// The app-to-app reference while the host's app is asked (`AppToAppRequestRecord.referenceDigest`).
    public var appToAppReference: TokenDigest?
    /// The sign-in name an earlier step gave without a password (identifier first, draft §5), for the password step.
    public var signInName: String?
    /// RFC 7638 thumbprint of the DPoP key of the first request; every later request must prove the same key.
    public var dpopKeyThumbprint: String?
    public var createdAt: Date
    /// Fixed when the first step starts and carried to every later value, so that no chain outlives its request.
    public var expiresAt: Date

    public init(
        digest: TokenDigest, clientID: String, interaction: TokenDigest, browser: TokenDigest, session: TokenDigest? = nil,
        appToAppReference: TokenDigest? = nil, signInName: String? = nil, dpopKeyThumbprint: String? = nil,
        createdAt: Date, expiresAt: Date
    ) {
        self.digest = digest
        self.clientID = clientID
        self.interaction = interaction
        self.browser = browser
        self.session = session
        self.appToAppReference = appToAppReference
        self.signInName = signInName
        self.dpopKeyThumbprint = dpopKeyThumbprint
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// Why this record cannot be taken by `clientID` with `dpopKeyThumbprint` at `now`, nil when it can: the one
    /// rule every store applies.
    public func refusal(clientID: String, dpopKeyThumbprint: String?, at now: Date) -> AuthSessionTaking? {
        if expiresAt <= now { return .expired }
        if self.clientID != clientID { return .otherClient }
        if self.dpopKeyThumbprint != dpopKeyThumbprint { return .otherKey }
        return nil
    }
}

public enum AuthSessionTaking: Sendable, Hashable {
    case taken(AuthSessionRecord)
    /// Never issued, or already taken (a replay).
    case unknown
    case expired
    /// Issued to another client; left in place.
    case otherClient
    /// Bound to another DPoP key (or to one, and the request proved none, or the reverse); left in place.
    case otherKey
}

/// The answer of `advanceAuthSession`.
public enum AuthSessionAdvance: Sendable, Hashable {
    /// The presented auth session could not be taken (why, as `takeAuthSession` says); nothing changed.
    case refused(AuthSessionTaking)
    /// Taken; where its request stands now. `next` was saved unless this is `.unknown` or an issued code.
    case continued(AuthorizationContinuation)

    /// Whether `advanceAuthSession` saves the next chain after this continuation.
    public static func savesNext(_ continuation: AuthorizationContinuation) -> Bool {
        switch continuation {
        case .progress(_, .issued): false
        case .progress: true
        case .unknown, .otherBrowser: false
        }
    }
}

public enum AppToAppApprovalTaking: Sendable, Hashable {
    /// Approved: the session was created for this user.
    case approved(userID: String)
    /// The host's app has not decided yet.
    case undecided
    case denied
    /// Unknown, expired, parked for another request, or used already.
    case gone
}
