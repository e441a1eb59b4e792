import BridgeStore
import Foundation
import PostgresNIO

/// The authorize flow's steps, each one transaction: the decision between read and write is
/// `AuthorizationDecision`'s, in Swift, so these are `BEGIN`, a read, the writes and `COMMIT` on one connection.
extension PostgresStore {
    /// Concurrent requests whose code can be issued share one statement (`issueInBatch`); the others, and any the
    /// batch did not issue for, one prepared statement (`StartAuthorizationQuery`): the session, its user and their
    /// consent are read, `AuthorizationDecision`'s rule is applied to them in SQL (its inputs that do not come from the database are
    /// computed here first, by its own functions), and either the grant and code are created or the request is parked.
    public func startAuthorization(
        _ pending: PendingAuthorizationRecord, session: TokenDigest?, issue: CodeIssue, park: Bool, at now: Date
    ) async throws -> AuthorizationProgress {
        guard let session else {
            if park { try await savePendingAuthorization(pending) }
            return .needsSignIn
        }
        let nowMS = Milliseconds.from(now)
        // Times are whole milliseconds: `created_at >= earliest` holds exactly when created_at >= ceil(earliest).
        let earliestMS = AuthorizationDecision.earliestSignIn(pending.terms, now: now)
            .map { Int64(($0.timeIntervalSince1970 * 1000).rounded(.up)) } ?? Int64.min
        let (grant, code) = AuthorizationDecision.issued(
            pending, user: UserRecord(id: "", signInName: ""), issue: issue, authTime: nil, at: now)
        if let issued = try await issueInBatch(
            .init(pending: pending, session: session, grant: grant, code: code, now: nowMS, earliestSignIn: earliestMS))
        {
            let (issuedGrant, issuedCode) = AuthorizationDecision.issued(
                pending, user: issued.user, issue: issue, authTime: issued.authTime, at: now)
            return .issued(issuedGrant, issuedCode, issued.user)
        }
        let row = try await rows(
            Subject("authorization request", tables: Self.issuedTables),
            StartAuthorizationQuery(
                pending: pending, session: session, grant: grant, code: code, park: park, now: nowMS,
                earliestSignIn: earliestMS)
        ).first
        guard let row, try row.optionalText("u_id") != nil else { return .needsSignIn }
        let user = try Self.user(row, prefix: "u_")
        guard try row.int("issued") == 1 else { return .needsConsent(user) }
        let (issuedGrant, issuedCode) = AuthorizationDecision.issued(
            pending, user: user, issue: issue, authTime: try row.optionalDate("s_created_at"), at: now)
        return .issued(issuedGrant, issuedCode, user)
    }

    /// One prepared statement (`ContinueAuthorizationQuery`), as `startAuthorization`, with the parked request read in
    /// it: its terms feed the session rule (`AuthorizationDecision.earliestSignIn` as `greatest`, which skips NULLs as
    /// `max(earliest ?? bound, bound)` does), and issuing first deletes the request (`taken`), so of two concurrent
    /// steps only the one whose DELETE found the row creates a grant and a code; the other waited for it and reports
    /// the request gone.
    public func continueAuthorization(
        _ interaction: TokenDigest, browser: TokenDigest?, session: TokenDigest?, consent: Bool, issue: CodeIssue,
        at now: Date
    ) async throws -> AuthorizationContinuation {
        let nowMS = Milliseconds.from(now)
        // `created_at >= now - max_age` on whole milliseconds holds exactly when created_at >= ceil(now) - max_age.
        let nowCeilingMS = Int64((now.timeIntervalSince1970 * 1000).rounded(.up))
        let row = try await rows(
            Subject("authorization step", tables: Self.issuedTables),
            ContinueAuthorizationQuery(
                interaction: interaction, browser: browser, session: session, consent: consent, issue: issue,
                now: nowMS, nowCeiling: nowCeilingMS)
        ).first
        return try Self.continuation(row, issue: issue, at: now)
    }

    /// What one row of `ContinueAuthorizationQuery` says (none: the request is gone).
    static func continuation(
        _ row: PostgresRandomAccessRow?, issue: CodeIssue, at now: Date
    ) throws -> AuthorizationContinuation {
        guard let row else { return .unknown }
        let pending = try row.pendingAuthorization()
        guard try row.int("mine") == 1 else { return .otherBrowser(pending) }
        guard try row.optionalText("u_id") != nil else { return .progress(pending, .needsSignIn) }
        let user = try Self.user(row, prefix: "u_")
        if try row.int("issued") == 1 {
            let (grant, code) = AuthorizationDecision.issued(
                pending, user: user, issue: issue, authTime: try row.optionalDate("s_created_at"), at: now)
            return .progress(pending, .issued(grant, code, user))
        }
        // Decided to issue, but a concurrent step took the request first: it is gone.
        if try row.int("ok") == 1 { return .unknown }
        return .progress(pending, .needsConsent(user))
    }

    public func prepareSignIn(
        interaction: TokenDigest, signInName: String, throttleKeys: [String], failuresSince: Date, at now: Date
    ) async throws -> SignInPreparation {
        // One read statement: the request, the account and the failure counts side by side.
        let row = try await rows(
            Subject("sign-in"),
            """
            SELECT p.*, u.id AS u_id, u.sign_in_name AS u_sign_in_name, u.friendly_name AS u_friendly_name,
                u.password_hash AS u_password_hash,
                (SELECT coalesce(array_agg(n ORDER BY i), '{}') FROM (
                    SELECT k.i, (SELECT count(*) FROM sign_in_failures f
                        WHERE f.key = k.key AND f.failed_at >= \(Milliseconds.from(failuresSince))) AS n
                    FROM unnest(\(throttleKeys)::text[]) WITH ORDINALITY AS k (key, i)) AS counts
                ) AS failure_counts
            FROM (SELECT 1) AS one
                LEFT JOIN pending_authorizations p
                    ON p.digest = \(interaction.hex) AND p.expires_at > \(Milliseconds.from(now))
                LEFT JOIN users u ON lower(u.sign_in_name COLLATE "C") = lower(\(signInName) COLLATE "C")
            """
        ).first
        guard let row else { return SignInPreparation(pending: nil, user: nil, failures: [:]) }
        let pending = try row.optionalText("digest") == nil ? nil : try row.pendingAuthorization()
        let user = try row.optionalText("u_id") == nil ? nil : try Self.user(row, prefix: "u_")
        let counts = try row["failure_counts"].decode([Int64].self)
        var failures: [String: Int] = [:]
        for (key, count) in zip(throttleKeys, counts) { failures[key] = Int(count) }
        return SignInPreparation(pending: pending, user: user, failures: failures)
    }

    public func completeSignIn(_ session: SessionRecord, clearingFailuresOf key: String) async throws {
        try await rows(
            Subject("session"),
            """
            WITH cleared AS (DELETE FROM sign_in_failures WHERE key = \(key))
            INSERT INTO sessions (digest, user_id, created_at, expires_at)
            VALUES (\(session.digest.hex), \(session.userID), \(Milliseconds.from(session.createdAt)),
                \(Milliseconds.from(session.expiresAt)))
            """)
    }

    /// What an issuing step's constraint errors name.
    static let issuedTables = ["grants": "grant", "authorization_codes": "authorization code"]
}
