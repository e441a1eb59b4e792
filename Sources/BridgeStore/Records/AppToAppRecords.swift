import Foundation

/// A parked authorization request that the user may finish in the host's own app (the provider side of the
/// Vipps/MobilePay "app to app" login): found by the digest of the reference in the deep link, decided once by the
/// host's app, and resumed once by the browser that started the request.
public struct AppToAppRequestRecord: Sendable, Hashable {
    /// Digest of the reference the deep link carries.
    public var referenceDigest: TokenDigest
    /// Digest of the parked request's interaction id (`PendingAuthorizationRecord.digest`).
    public var interactionDigest: TokenDigest
    public var clientID: String
    /// What the server needs to answer the host's app (state, app callback URI, resume path); opaque to the store.
    public var payload: String
    public var createdAt: Date
    /// The reference, the decision and the resume all end here (short: minutes).
    public var expiresAt: Date
    /// Set by an approval: the user the host's app is signed in as.
    public var userID: String?
    /// Digest of the secret in `resume_uri`; set by an approval.
    public var resumeDigest: TokenDigest?
    /// Set once by the decision (approve or deny).
    public var decidedAt: Date?
    /// Set once by the resume.
    public var resumedAt: Date?

    public init(
        referenceDigest: TokenDigest, interactionDigest: TokenDigest, clientID: String, payload: String,
        createdAt: Date, expiresAt: Date, userID: String? = nil, resumeDigest: TokenDigest? = nil,
        decidedAt: Date? = nil, resumedAt: Date? = nil
    ) {
        self.referenceDigest = referenceDigest
        self.interactionDigest = interactionDigest
        self.clientID = clientID
        self.payload = payload
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.userID = userID
        self.resumeDigest = resumeDigest
        self.decidedAt = decidedAt
        self.resumedAt = resumedAt
    }

    /// Decided, and not approved.
    public var isDenied: Bool { decidedAt != nil && userID == nil }
}

/// What the host's app answers.
public enum AppToAppDecision: Sendable, Hashable {
    /// The user approved in the app, signed in as `userID`; `resume` is the digest of the `resume_uri` secret.
    case approve(userID: String, resume: TokenDigest)
    case deny
}

/// The answer of `decideAppToApp`.
public enum AppToAppDecisionOutcome: Sendable, Hashable {
    /// This call decided the request (the record as it is now).
    case decided(AppToAppRequestRecord)
    /// Another call decided it first: a reference is single use.
    case alreadyDecided
    case expired
    /// The request is for a client the approving app may not approve for.
    case notAllowed
    case unknown
}

/// The answer of `approveSimpleLogin`.
public enum SimpleLoginApproval: Sendable, Hashable {
    /// This call decided the request and issued the code: the decided record, the parked request it took (its
    /// payload and terms name where the code goes), and the grant and code created.
    case issued(AppToAppRequestRecord, PendingAuthorizationRecord, GrantRecord, AuthorizationCodeRecord)
    /// Another call decided it first: a reference is single use.
    case alreadyDecided
    /// The reference or its parked request expired (or the parked request ended another way); nothing changed.
    case expired
    /// The request is for a client the approving app may not approve for.
    case notAllowed
    /// No such reference, or no such user.
    case unknown
}

/// The answer of `resumeAppToApp`.
public enum AppToAppResumeOutcome: Sendable, Hashable {
    /// This call resumed the request and created the browser's session for the approving user.
    case resumed(AppToAppRequestRecord)
    /// The parked request belongs to another browser; nothing changed.
    case otherBrowser
    /// Resumed before: a resume is single use.
    case alreadyUsed
    /// The reference or the parked request expired (or the request was denied).
    case expired
    case unknown
}
