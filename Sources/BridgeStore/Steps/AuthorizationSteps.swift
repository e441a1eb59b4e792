import Foundation

/// The grant and code a step creates when an authorization request can finish: ids and digests chosen by the caller
/// (the code's secret never reaches the store), the rest taken from the request's `AuthorizationTerms`.
public struct CodeIssue: Sendable, Hashable {
    public var codeDigest: TokenDigest
    public var grantID: GrantID
    public var codeExpiresAt: Date

    public init(codeDigest: TokenDigest, grantID: GrantID = .generate(), codeExpiresAt: Date) {
        self.codeDigest = codeDigest
        self.grantID = grantID
        self.codeExpiresAt = codeExpiresAt
    }
}

/// Where an authorization request stands after a step.
public enum AuthorizationProgress: Sendable, Hashable {
    /// Finished: the grant and the code were created for `user` (the caller redirects with the code).
    case issued(GrantRecord, AuthorizationCodeRecord, UserRecord)
    /// No browser session counts for this request: the user must sign in.
    case needsSignIn
    /// Signed in as the user, who has not yet allowed the client every requested scope (or `prompt=consent`).
    case needsConsent(UserRecord)
}

/// The answer of `continueAuthorization`.
public enum AuthorizationContinuation: Sendable, Hashable {
    /// No live parked request under that id (never was, expired, or already finished).
    case unknown
    /// The request was started in another browser; nothing changed.
    case otherBrowser(PendingAuthorizationRecord)
    /// The request, and where it stands now.
    case progress(PendingAuthorizationRecord, AuthorizationProgress)
}

/// The read half of a password sign-in.
public struct SignInPreparation: Sendable, Hashable {
    /// The parked request, if it is live.
    public var pending: PendingAuthorizationRecord?
    /// The account with that sign-in name, if any.
    public var user: UserRecord?
    /// Failures at or after the window's start under each throttle key (missing keys are 0).
    public var failures: [String: Int]

    public init(pending: PendingAuthorizationRecord?, user: UserRecord?, failures: [String: Int]) {
        self.pending = pending
        self.user = user
        self.failures = failures
    }
}

/// The one rule that decides an authorization step, shared by every store so that they cannot disagree: which
/// session counts (OpenID Connect Core §3.1.2.1 `prompt=login` and `max_age`), and whether consent is needed.
public enum AuthorizationDecision {
    /// The earliest sign-in time a session may have to count for `terms` at `now`; nil when any active one counts.
    public static func earliestSignIn(_ terms: AuthorizationTerms, now: Date) -> Date? {
        var earliest = terms.signInAfter
        if let maxAge = terms.maxAgeSeconds {
            let bound = now.addingTimeInterval(-TimeInterval(maxAge))
            earliest = max(earliest ?? bound, bound)
        }
        return earliest
    }

    /// Whether `session` is active at `now` and recent enough for `terms`.
    public static func sessionCounts(_ session: SessionRecord?, for terms: AuthorizationTerms, now: Date) -> Bool {
        guard let session, session.expiresAt > now else { return false }
        return session.createdAt >= (earliestSignIn(terms, now: now) ?? .distantPast)
    }

    /// Whether the user's remembered `consent` lets the request finish without asking.
    public static func consentSuffices(_ consent: ConsentRecord?, for terms: AuthorizationTerms) -> Bool {
        switch terms.consent {
        case .notNeeded: true
        case .always: false
        case .remembered: Set(terms.scopes).isSubset(of: consent?.scopes ?? [])
        }
    }

    /// The consent to remember after the user allowed `terms`: the scopes they allowed before, and these.
    public static func consentAfterAllowing(
        _ terms: AuthorizationTerms, previous: ConsentRecord?, userID: String, clientID: String, at now: Date
    ) -> ConsentRecord {
        let scopes = (previous?.scopes ?? []).union(terms.scopes)
        return ConsentRecord(userID: userID, clientID: clientID, scope: scopes.sorted().joined(separator: " "), grantedAt: now)
    }

    /// The grant and code that finish `pending` for `user`, who signed in at `authTime`.
    public static func issued(
        _ pending: PendingAuthorizationRecord, user: UserRecord, issue: CodeIssue, authTime: Date?, at now: Date
    ) -> (GrantRecord, AuthorizationCodeRecord) {
        let terms = pending.terms
        let grant = GrantRecord(
            id: issue.grantID, userID: user.id, clientID: pending.clientID, scope: terms.scope,
            sessionContext: terms.sessionContext, createdAt: now)
        let code = AuthorizationCodeRecord(
            digest: issue.codeDigest, grantID: grant.id, clientID: pending.clientID, redirectURI: terms.redirectURI,
            codeChallenge: terms.codeChallenge, codeChallengeMethod: terms.codeChallengeMethod, scope: terms.scope,
            issuedAt: now, expiresAt: issue.codeExpiresAt, nonce: terms.nonce, authTime: authTime,
            dpopKeyThumbprint: terms.dpopKeyThumbprint)
        return (grant, code)
    }
}
