import BridgeStore
import Foundation
import PostgresNIO

/// The authorize flow's steps, each one transaction: the decision between read and write is
/// `AuthorizationDecision`'s, in Swift, so these are `BEGIN`, a read, the writes and `COMMIT` on one connection.
extension PostgresStore {
    public func startAuthorization(
        _ pending: PendingAuthorizationRecord, session: TokenDigest?, issue: CodeIssue, park: Bool, at now: Date
    ) async throws -> AuthorizationProgress {
        try await transaction(Subject("authorization request", tables: Self.issuedTables)) { tx in
            let progress = try await Self.decide(pending, session: session, allowing: false, issue: issue, at: now, in: tx)
            if case .issued = progress { return progress }
            if park { try await tx.rows(Self.insertPending(pending)) }
            return progress
        }
    }

    public func continueAuthorization(
        _ interaction: TokenDigest, browser: TokenDigest?, session: TokenDigest?, consent: Bool, issue: CodeIssue,
        at now: Date
    ) async throws -> AuthorizationContinuation {
        try await transaction(Subject("authorization step", tables: Self.issuedTables)) { tx in
            // FOR UPDATE: of two concurrent steps on one request, the second waits, then finds it gone if the
            // first issued the code, so one request ends in at most one code.
            guard
                let pending = try await tx.rows(
                    """
                    SELECT * FROM pending_authorizations
                    WHERE digest = \(interaction.hex) AND expires_at > \(Milliseconds.from(now)) FOR UPDATE
                    """
                ).first.map(Self.pendingAuthorization)
            else { return .unknown }
            guard browser == pending.browserDigest else { return .otherBrowser(pending) }
            let progress = try await Self.decide(pending, session: session, allowing: consent, issue: issue, at: now, in: tx)
            if case .issued = progress {
                try await tx.rows("DELETE FROM pending_authorizations WHERE digest = \(interaction.hex)")
            }
            return .progress(pending, progress)
        }
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
        let pending = try row.optionalText("digest") == nil ? nil : try Self.pendingAuthorization(row)
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

    /// `AuthorizationDecision` on the session, user and consent as this transaction reads them; creates the grant
    /// and code when the request can finish. `allowing`: the user just allowed the request's scopes.
    static func decide(
        _ pending: PendingAuthorizationRecord, session: TokenDigest?, allowing: Bool, issue: CodeIssue, at now: Date,
        in tx: Transaction
    ) async throws -> AuthorizationProgress {
        guard let session,
            let row = try await tx.rows(
                """
                SELECT s.created_at AS s_created_at, s.expires_at AS s_expires_at, u.id AS u_id,
                    u.sign_in_name AS u_sign_in_name, u.friendly_name AS u_friendly_name,
                    u.password_hash AS u_password_hash, c.scope AS c_scope, c.granted_at AS c_granted_at
                FROM sessions s JOIN users u ON u.id = s.user_id
                    LEFT JOIN consents c ON c.user_id = u.id AND c.client_id = \(pending.clientID)
                WHERE s.digest = \(session.hex) AND s.ended_at IS NULL AND s.expires_at > \(Milliseconds.from(now))
                """
            ).first
        else { return .needsSignIn }
        let user = try Self.user(row, prefix: "u_")
        let sessionRecord = SessionRecord(
            digest: session, userID: user.id, createdAt: try row.date("s_created_at"), expiresAt: try row.date("s_expires_at"))
        guard AuthorizationDecision.sessionCounts(sessionRecord, for: pending.terms, now: now) else { return .needsSignIn }
        var consent = try row.optionalText("c_scope").map {
            ConsentRecord(userID: user.id, clientID: pending.clientID, scope: $0, grantedAt: try row.date("c_granted_at"))
        }
        var terms = pending.terms
        if allowing {
            let allowed = AuthorizationDecision.consentAfterAllowing(
                terms, previous: consent, userID: user.id, clientID: pending.clientID, at: now)
            try await tx.rows(Self.upsertConsent(allowed))
            consent = allowed
            // The user has just answered the consent page, so it was asked, whatever the rule was.
            terms.consent = .notNeeded
        }
        guard AuthorizationDecision.consentSuffices(consent, for: terms) else { return .needsConsent(user) }
        let (grant, code) = AuthorizationDecision.issued(pending, user: user, issue: issue, at: now)
        try await tx.rows(
            """
            WITH grant_row AS (
                INSERT INTO grants (id, user_id, client_id, scope, session_context, created_at)
                VALUES (\(grant.id.rawValue), \(grant.userID), \(grant.clientID), \(grant.scope), \(grant.sessionContext),
                    \(Milliseconds.from(grant.createdAt)))
                RETURNING id
            )
            INSERT INTO authorization_codes (digest, grant_id, client_id, redirect_uri, code_challenge,
                code_challenge_method, scope, issued_at, expires_at)
            SELECT \(code.digest.hex), id, \(code.clientID), \(code.redirectURI), \(code.codeChallenge),
                \(code.codeChallengeMethod), \(code.scope), \(Milliseconds.from(code.issuedAt)),
                \(Milliseconds.from(code.expiresAt))
            FROM grant_row
            """)
        return .issued(grant, code, user)
    }
}
