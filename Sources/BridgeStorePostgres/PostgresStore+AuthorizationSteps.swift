import BridgeStore
import Foundation
import PostgresNIO

/// The authorize flow's steps, each one transaction: the decision between read and write is
/// `AuthorizationDecision`'s, in Swift, so these are `BEGIN`, a read, the writes and `COMMIT` on one connection.
extension PostgresStore {
    /// One prepared statement (`StartAuthorizationQuery`): the session, its user and their consent are read,
    /// `AuthorizationDecision`'s rule is applied to them in SQL (its inputs that do not come from the database are
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

    /// One statement, as `startAuthorization`, with the parked request read in it: its terms feed the session
    /// rule (`AuthorizationDecision.earliestSignIn` as `greatest`, which skips NULLs as `max(earliest ?? bound,
    /// bound)` does), and issuing first deletes the request (`taken`), so of two concurrent steps only the one whose
    /// DELETE found the row creates a grant and a code; the other waited for it and reports the request gone.
    public func continueAuthorization(
        _ interaction: TokenDigest, browser: TokenDigest?, session: TokenDigest?, consent: Bool, issue: CodeIssue,
        at now: Date
    ) async throws -> AuthorizationContinuation {
        let nowMS = Milliseconds.from(now)
        // `created_at >= now - max_age` on whole milliseconds holds exactly when created_at >= ceil(now) - max_age.
        let nowCeilingMS = Int64((now.timeIntervalSince1970 * 1000).rounded(.up))
        let row = try await rows(
            Subject("authorization step", tables: Self.issuedTables),
            """
            WITH p AS (
                SELECT * FROM pending_authorizations
                WHERE digest = \(interaction.hex) AND expires_at > \(nowMS)
            ),
            mine AS (SELECT * FROM p WHERE browser_digest = \(browser?.hex)::text),
            s AS (
                SELECT u.id AS u_id, u.sign_in_name AS u_sign_in_name, u.friendly_name AS u_friendly_name,
                    u.password_hash AS u_password_hash, c.scope AS c_scope, mine.client_id AS p_client_id,
                    mine.scope AS p_scope, mine.consent AS p_consent, s.created_at AS s_created_at
                FROM mine JOIN sessions s ON s.digest = \(session?.hex)::text AND s.ended_at IS NULL
                        AND s.expires_at > \(nowMS)
                        AND s.created_at >= coalesce(
                            greatest(mine.sign_in_after, \(nowCeilingMS) - mine.max_age_seconds * 1000),
                            -9223372036854775808)
                    JOIN users u ON u.id = s.user_id
                    LEFT JOIN consents c ON c.user_id = u.id AND c.client_id = mine.client_id
            ),
            allowed AS (
                INSERT INTO consents (user_id, client_id, scope, granted_at)
                SELECT u_id, p_client_id,
                    array_to_string(ARRAY(
                        SELECT DISTINCT v COLLATE "C" FROM unnest(
                            string_to_array(coalesce(c_scope, ''), ' ') || string_to_array(p_scope, ' ')) AS v
                        WHERE v <> '' ORDER BY 1), ' '),
                    \(nowMS)
                FROM s WHERE \(consent)
                ON CONFLICT (user_id, client_id) DO UPDATE SET scope = excluded.scope, granted_at = excluded.granted_at
            ),
            ok AS (
                SELECT * FROM s
                WHERE \(consent) OR p_consent = 'not_needed'
                    OR (p_consent = 'remembered'
                        -- '' joins the consented side: a doubled space in the request is no missing scope.
                        AND string_to_array(p_scope, ' ') <@ (string_to_array(coalesce(c_scope, ''), ' ') || '{""}'::text[]))
            ),
            taken AS (
                DELETE FROM pending_authorizations
                WHERE digest = \(interaction.hex) AND EXISTS (SELECT 1 FROM ok)
                RETURNING *
            ),
            grant_row AS (
                INSERT INTO grants (id, user_id, client_id, scope, session_context, created_at)
                SELECT \(issue.grantID.rawValue), ok.u_id, taken.client_id, taken.scope, taken.session_context, \(nowMS)
                FROM taken, ok
                RETURNING id
            ),
            code AS (
                INSERT INTO authorization_codes (digest, grant_id, client_id, redirect_uri, code_challenge,
                    code_challenge_method, scope, issued_at, expires_at, nonce, auth_time, dpop_jkt)
                SELECT \(issue.codeDigest.hex), grant_row.id, taken.client_id, taken.redirect_uri, taken.code_challenge,
                    taken.code_challenge_method, taken.scope, \(nowMS), \(Milliseconds.from(issue.codeExpiresAt)),
                    taken.nonce, (SELECT s_created_at FROM ok), taken.dpop_jkt
                FROM grant_row, taken
                RETURNING digest
            )
            SELECT p.*, (SELECT count(*) FROM mine) AS mine, s.u_id, s.u_sign_in_name, s.u_friendly_name,
                s.u_password_hash, s.s_created_at, (SELECT count(*) FROM ok) AS ok, (SELECT count(*) FROM code) AS issued
            FROM p LEFT JOIN s ON true
            """
        ).first
        guard let row else { return .unknown }
        let pending = try Self.pendingAuthorization(row)
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
}
