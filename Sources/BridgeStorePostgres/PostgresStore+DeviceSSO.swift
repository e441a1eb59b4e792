import BridgeStore
import Foundation
import PostgresNIO

// MARK: Native SSO device sessions

extension PostgresStore {
    public func createDeviceSession(_ session: DeviceSessionRecord) async throws {
        try await rows(
            Subject("device session"),
            """
            INSERT INTO device_sessions (digest, sid, user_id, client_id, sso_group, scope, auth_time, created_at,
                expires_at, ended_at)
            VALUES (\(session.digest.hex), \(session.sid), \(session.userID), \(session.clientID), \(session.group),
                \(session.scope), \(Milliseconds.from(session.authTime)), \(Milliseconds.from(session.createdAt)),
                \(Milliseconds.from(session.expiresAt)), \(Milliseconds.from(session.endedAt)))
            """)
    }

    /// One statement: the CTE's snapshot says what the session was; the grant and its tokens are inserted only from
    /// a live session that `claim` matches (the SQL form of `DeviceSessionClaim.matches`), their foreign keys checked
    /// at the end of the statement (PostgreSQL docs, "Data-Modifying Statements in WITH").
    public func exchangeDeviceSecret(
        _ digest: TokenDigest, claim: DeviceSessionClaim, grant: GrantRecord, issuing: TokenResponseDraft, at now: Date
    ) async throws -> DeviceSecretExchange {
        let nowMS = Milliseconds.from(now)
        let (access, refresh) = issuing.records(
            grant: grant.id, clientID: grant.clientID, accessScope: grant.scope, refreshScope: grant.scope)
        guard
            let row = try await rows(
                Subject(
                    "grant \(grant.id)",
                    tables: ["access_tokens": "access token \(access.tokenID)", "refresh_tokens": "refresh token"]),
                """
                WITH ds AS (SELECT * FROM device_sessions WHERE digest = \(digest.hex)),
                live AS (
                    SELECT 1 FROM ds WHERE ended_at IS NULL AND expires_at > \(nowMS) AND sid = \(claim.sid)
                        AND user_id = \(claim.userID) AND sso_group = \(claim.group)
                        AND string_to_array(scope, ' ') @> string_to_array(\(claim.scope), ' ')
                ),
                new_grant AS (
                    INSERT INTO grants (id, user_id, client_id, scope, session_context, created_at, revoked_at)
                    SELECT \(grant.id.rawValue), \(grant.userID), \(grant.clientID), \(grant.scope), NULL,
                        \(Milliseconds.from(grant.createdAt)), NULL
                    FROM live
                    RETURNING id
                ),
                new_access AS (
                    INSERT INTO access_tokens (token_id, grant_id, issued_at, expires_at)
                    SELECT \(access.tokenID), id, \(Milliseconds.from(access.issuedAt)), \(Milliseconds.from(access.expiresAt))
                    FROM new_grant
                    RETURNING token_id
                ),
                new_refresh AS (
                    INSERT INTO refresh_tokens (digest, grant_id, client_id, scope, issued_at, expires_at)
                    SELECT \(refresh?.digest.hex), id, \(grant.clientID), \(grant.scope),
                        \(Milliseconds.from(access.issuedAt)), \(Milliseconds.from(refresh?.expiresAt))
                    FROM new_grant WHERE \(refresh != nil)
                    RETURNING digest
                )
                SELECT ds.*, (SELECT count(*) FROM new_access) AS issued FROM ds
                """
            ).first
        else { return .unknown }
        let session = DeviceSessionRecord(
            digest: digest, sid: try row.text("sid"), userID: try row.text("user_id"), clientID: try row.text("client_id"),
            group: try row.text("sso_group"), scope: try row.text("scope"), authTime: try row.optionalDate("auth_time"),
            createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"),
            endedAt: try row.optionalDate("ended_at"))
        if try row.int("issued") == 1 { return .exchanged(session) }
        if session.endedAt != nil { return .ended }
        guard session.expiresAt > now else { return .expired }
        return .mismatch(session)
    }

    public func endDeviceSession(_ digest: TokenDigest, group: String, at now: Date) async throws -> Bool {
        let nowMS = Milliseconds.from(now)
        return try await endedCount(
            """
            WITH ended AS (
                UPDATE device_sessions SET ended_at = \(nowMS)
                WHERE digest = \(digest.hex) AND sso_group = \(group) AND ended_at IS NULL AND expires_at > \(nowMS)
                RETURNING digest
            )
            SELECT count(*) AS changed FROM ended
            """) == 1
    }

    public func endDeviceSession(sid: String, at now: Date) async throws -> Bool {
        let nowMS = Milliseconds.from(now)
        return try await endedCount(
            """
            WITH ended AS (
                UPDATE device_sessions SET ended_at = \(nowMS)
                WHERE sid = \(sid) AND ended_at IS NULL AND expires_at > \(nowMS)
                RETURNING digest
            )
            SELECT count(*) AS changed FROM ended
            """) == 1
    }

    private func endedCount(_ query: PostgresQuery) async throws -> Int {
        try await rows(Subject("device session end"), query).first?.int("changed") ?? 0
    }
}
