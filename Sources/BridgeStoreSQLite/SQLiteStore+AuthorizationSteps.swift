import BridgeStore
import Foundation

/// The authorize flow's steps, each one transaction on the writer connection (`Store`'s "one call per step").
extension SQLiteStore {
    public func startAuthorization(
        _ pending: PendingAuthorizationRecord, session: TokenDigest?, issue: CodeIssue, park: Bool, at now: Date
    ) async throws -> AuthorizationProgress {
        try await transaction("authorization request") { tx in
            let progress = try Self.decide(pending, session: session, allowing: false, issue: issue, at: now, in: tx)
            if case .issued = progress { return progress }
            if park { try Self.insertPending(pending, in: tx) }
            return progress
        }
    }

    public func continueAuthorization(
        _ interaction: TokenDigest, browser: TokenDigest?, session: TokenDigest?, consent: Bool, issue: CodeIssue,
        at now: Date
    ) async throws -> AuthorizationContinuation {
        try await transaction("authorization step") { tx in
            try Self.continueAuthorization(
                interaction, browser: browser, session: session, consent: consent, issue: issue, at: now, in: tx)
        }
    }

    /// `continueAuthorization` inside `tx`, for the steps that continue a request among other writes.
    static func continueAuthorization(
        _ interaction: TokenDigest, browser: TokenDigest?, session: TokenDigest?, consent: Bool, issue: CodeIssue,
        at now: Date, in tx: Transaction
    ) throws -> AuthorizationContinuation {
        guard
            let pending = try tx.query(
                "SELECT * FROM pending_authorizations WHERE digest = ? AND expires_at > ?",
                [.text(interaction.hex), .millis(now)]
            ).first.map({ try $0.pendingAuthorization() })
        else { return .unknown }
        guard browser == pending.browserDigest else { return .otherBrowser(pending) }
        let progress = try Self.decide(pending, session: session, allowing: consent, issue: issue, at: now, in: tx)
        if case .issued = progress {
            try tx.query("DELETE FROM pending_authorizations WHERE digest = ?", [.text(interaction.hex)])
        }
        return .progress(pending, progress)
    }

    public func prepareSignIn(
        interaction: TokenDigest, signInName: String, throttleKeys: [String], failuresSince: Date, at now: Date
    ) async throws -> SignInPreparation {
        // One read statement: the request, the account and the failure counts side by side.
        let keys = throttleKeys.isEmpty ? [""] : throttleKeys
        // ?1 request, ?2 now, ?3 start of the failure window, ?4… throttle keys, then the sign-in name.
        let counts = keys.indices.map { "(SELECT count(*) FROM sign_in_failures WHERE key = ?\($0 + 4) AND failed_at >= ?3)" }
        let rows = try await read(
            """
            SELECT p.*, u.id AS u_id, u.sign_in_name AS u_sign_in_name, u.friendly_name AS u_friendly_name,
                u.password_hash AS u_password_hash, json_array(\(counts.joined(separator: ", "))) AS failure_counts
            FROM (SELECT 1) LEFT JOIN pending_authorizations p ON p.digest = ?1 AND p.expires_at > ?2
                LEFT JOIN users u ON u.sign_in_name = ?\(keys.count + 4)
            """,
            [.text(interaction.hex), .millis(now), .millis(failuresSince)] + keys.map { .text($0) } + [.text(signInName)])
        guard let row = rows.first else { return SignInPreparation(pending: nil, user: nil, failures: [:]) }
        let pending = try row.optionalText("digest") == nil ? nil : try row.pendingAuthorization()
        let user = try row.optionalText("u_id") == nil ? nil : try Self.user(row, prefix: "u_")
        let values = try JSONDecoder().decode([Int].self, from: Data(try row.text("failure_counts").utf8))
        var failures: [String: Int] = [:]
        for (key, count) in zip(throttleKeys, values) { failures[key] = count }
        return SignInPreparation(pending: pending, user: user, failures: failures)
    }

    public func completeSignIn(_ session: SessionRecord, clearingFailuresOf key: String) async throws {
        try await transaction("session") { tx in
            try Self.insertSession(session, in: tx)
            try tx.query("DELETE FROM sign_in_failures WHERE key = ?", [.text(key)])
        }
    }

    /// `AuthorizationDecision` on the session, user and consent as this transaction sees them; creates the grant
    /// and code when the request can finish. `allowing`: the user just allowed the request's scopes.
    static func decide(
        _ pending: PendingAuthorizationRecord, session: TokenDigest?, allowing: Bool, issue: CodeIssue, at now: Date,
        in tx: Transaction
    ) throws -> AuthorizationProgress {
        guard let session,
            let row = try tx.query(
                """
                SELECT s.created_at AS s_created_at, s.expires_at AS s_expires_at, u.id AS u_id,
                    u.sign_in_name AS u_sign_in_name, u.friendly_name AS u_friendly_name,
                    u.password_hash AS u_password_hash, c.scope AS c_scope, c.granted_at AS c_granted_at
                FROM sessions s JOIN users u ON u.id = s.user_id
                    LEFT JOIN consents c ON c.user_id = u.id AND c.client_id = ?
                WHERE s.digest = ? AND s.ended_at IS NULL AND s.expires_at > ?
                """,
                [.text(pending.clientID), .text(session.hex), .millis(now)]
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
            consent = AuthorizationDecision.consentAfterAllowing(
                terms, previous: consent, userID: user.id, clientID: pending.clientID, at: now)
            try upsertConsent(consent!, in: tx)
            // The user has just answered the consent page, so it was asked, whatever the rule was.
            terms.consent = .notNeeded
        }
        guard AuthorizationDecision.consentSuffices(consent, for: terms) else { return .needsConsent(user) }
        let (grant, code) = AuthorizationDecision.issued(
            pending, user: user, issue: issue, authTime: sessionRecord.createdAt, at: now)
        try insertGrant(grant, in: tx)
        try insertCode(code, in: tx)
        return .issued(grant, code, user)
    }
}
