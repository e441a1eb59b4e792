import BridgeStore
import Foundation
import PostgresNIO

/// The authorization challenge endpoint's auth sessions, one statement each: the DELETE (or UPDATE) decides who
/// wins, and the row as the statement's snapshot saw it tells a loser why.
extension PostgresStore {
    public func saveAuthSession(_ record: AuthSessionRecord) async throws {
        try await rows(
            Subject("auth session"),
            """
            INSERT INTO auth_sessions (digest, client_id, interaction_digest, browser_digest, session_digest,
                app_to_app_reference, sign_in_name, dpop_jkt, created_at, expires_at)
            VALUES (\(record.digest.hex), \(record.clientID), \(record.interaction.hex), \(record.browser.hex),
                \(record.session?.hex)::text, \(record.appToAppReference?.hex)::text, \(record.signInName)::text,
                \(record.dpopKeyThumbprint)::text,
                \(Milliseconds.from(record.createdAt)), \(Milliseconds.from(record.expiresAt)))
            """)
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
        let record = AuthSessionRecord(
            digest: try row.digest("digest"), clientID: try row.text("client_id"),
            interaction: try row.digest("interaction_digest"), browser: try row.digest("browser_digest"),
            session: try row.optionalText("session_digest").flatMap(TokenDigest.init(hex:)),
            appToAppReference: try row.optionalText("app_to_app_reference").flatMap(TokenDigest.init(hex:)),
            signInName: try row.optionalText("sign_in_name"),
            dpopKeyThumbprint: try row.optionalText("dpop_jkt"), createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"))
        if let refusal = record.refusal(clientID: clientID, dpopKeyThumbprint: dpopKeyThumbprint, at: now) {
            return refusal
        }
        // Taken by this statement, or by a concurrent one between the snapshot and the DELETE (then: a replay).
        return try row.int("won") == 1 ? .taken(record) : .unknown
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
        let record = try Self.appToAppRequest(row)
        guard record.resumedAt == nil, record.expiresAt > now else { return .gone }
        if record.decidedAt == nil { return .undecided }
        return record.userID == nil ? .denied : .gone  // approved, and a concurrent call took it first
    }
}
