import BridgeStore
import Foundation
import PostgresNIO

/// The authorization challenge endpoint's auth sessions, one statement each: the DELETE (or UPDATE) decides who
/// wins, and the row as the statement's snapshot saw it tells a loser why.
extension PostgresStore {
    public func saveAuthSession(_ record: AuthSessionRecord) async throws {
        try await rows(Subject("auth session"), Self.insertAuthSession(record))
    }

    static func insertAuthSession(_ record: AuthSessionRecord) -> PostgresQuery {
        """
        INSERT INTO auth_sessions (digest, client_id, interaction_digest, browser_digest, session_digest,
            app_to_app_reference, sign_in_name, dpop_jkt, created_at, expires_at)
        VALUES (\(record.digest.hex), \(record.clientID), \(record.interaction.hex), \(record.browser.hex),
            \(record.session?.hex)::text, \(record.appToAppReference?.hex)::text, \(record.signInName)::text,
            \(record.dpopKeyThumbprint)::text,
            \(Milliseconds.from(record.createdAt)), \(Milliseconds.from(record.expiresAt)))
        """
    }

    public func takeAuthSession(
        _ digest: TokenDigest, clientID: String, dpopKeyThumbprint: String?, at now: Date
    ) async throws -> AuthSessionTaking {
        let nowMS = Milliseconds.from(now)
        // Deleted when it can be taken, or when it has expired; the other refusals leave it to its rightful holder.
        let row = try await rows(
            Subject("auth session"),
            """
            WITH a AS (SELECT * FROM auth_sessions WHERE digest = \(digest.hex)),
            won AS (
                DELETE FROM auth_sessions
                WHERE digest = \(digest.hex) AND (expires_at <= \(nowMS) OR (client_id = \(clientID)
                    AND dpop_jkt IS NOT DISTINCT FROM \(dpopKeyThumbprint)::text))
                RETURNING digest
            )
            SELECT a.*, (SELECT count(*) FROM won) AS won FROM a
            """
        ).first
        guard let row else { return .unknown }
        let record = try row.authSession()
        if let refusal = record.refusal(clientID: clientID, dpopKeyThumbprint: dpopKeyThumbprint, at: now) {
            return refusal
        }
        // Taken by this statement, or by a concurrent one between the snapshot and the DELETE (then: a replay).
        return try row.int("won") == 1 ? .taken(record) : .unknown
    }

    public func authSession(
        _ digest: TokenDigest, clientID: String, dpopKeyThumbprint: String?, at now: Date
    ) async throws -> AuthSessionTaking {
        guard let row = try await rows(Subject("auth session"), "SELECT * FROM auth_sessions WHERE digest = \(digest.hex)").first
        else { return .unknown }
        let record = try row.authSession()
        return record.refusal(clientID: clientID, dpopKeyThumbprint: dpopKeyThumbprint, at: now) ?? .taken(record)
    }

    /// `BEGIN`, the presented row locked and taken, `ContinueAuthorizationQuery` on the same connection and the next
    /// row, `COMMIT`: a refusal or a failure anywhere rolls the take back with the rest.
    public func advanceAuthSession(
        _ presented: TokenDigest?, to next: AuthSessionRecord, issue: CodeIssue, at now: Date
    ) async throws -> AuthSessionAdvance {
        let nowMS = Milliseconds.from(now)
        let nowCeilingMS = Int64((now.timeIntervalSince1970 * 1000).rounded(.up))
        return try await inTransaction(Subject("auth session step", tables: Self.issuedTables)) { tx, logger in
            if let presented {
                let row = try await tx.query(
                    "SELECT * FROM auth_sessions WHERE digest = \(presented.hex) FOR UPDATE", logger: logger
                ).collect().first?.makeRandomAccess()
                guard let row else { return .refused(.unknown) }
                let record = try row.authSession()
                let refusal = record.refusal(clientID: next.clientID, dpopKeyThumbprint: next.dpopKeyThumbprint, at: now)
                if refusal == nil || refusal == .expired {
                    try await tx.query("DELETE FROM auth_sessions WHERE digest = \(presented.hex)", logger: logger)
                }
                if let refusal { return .refused(refusal) }
            }
            var rows: [PostgresRandomAccessRow] = []
            let query = ContinueAuthorizationQuery(
                interaction: next.interaction, browser: next.browser, session: next.session, consent: false, issue: issue,
                now: nowMS, nowCeiling: nowCeilingMS)
            for try await row in try await tx.execute(query, logger: logger) { rows.append(row) }
            let continuation = try Self.continuation(rows.first, issue: issue, at: now)
            if AuthSessionAdvance.savesNext(continuation) {
                try await tx.query(Self.insertAuthSession(next), logger: logger)
            }
            return .continued(continuation)
        }
    }

    public func authSessionClient(_ digest: TokenDigest) async throws -> String? {
        try await rows(Subject("auth session"), "SELECT client_id FROM auth_sessions WHERE digest = \(digest.hex)")
            .first?.text("client_id")
    }

    public func takeAppToAppApproval(
        _ reference: TokenDigest, interaction: TokenDigest, session: TokenDigest, sessionExpiresAt: Date, at now: Date
    ) async throws -> AppToAppApprovalTaking {
        let nowMS = Milliseconds.from(now)
        let row = try await rows(
            Subject("app-to-app approval"),
            """
            WITH a AS (
                SELECT * FROM app_to_app_requests
                WHERE reference_digest = \(reference.hex) AND interaction_digest = \(interaction.hex)
            ),
            won AS (
                UPDATE app_to_app_requests SET resumed_at = \(nowMS)
                WHERE reference_digest = \(reference.hex) AND interaction_digest = \(interaction.hex)
                    AND resumed_at IS NULL AND expires_at > \(nowMS) AND user_id IS NOT NULL
                RETURNING user_id
            ),
            s AS (
                INSERT INTO sessions (digest, user_id, created_at, expires_at)
                SELECT \(session.hex), user_id, \(nowMS), \(Milliseconds.from(sessionExpiresAt)) FROM won
                RETURNING user_id
            )
            SELECT a.*, (SELECT user_id FROM s) AS approved_user FROM a
            """
        ).first
        guard let row else { return .gone }
        if let userID = try row.optionalText("approved_user") { return .approved(userID: userID) }
        let record = try row.appToAppRequest()
        guard record.resumedAt == nil, record.expiresAt > now else { return .gone }
        if record.decidedAt == nil { return .undecided }
        return record.userID == nil ? .denied : .gone  // approved, and a concurrent call took it first
    }
}
