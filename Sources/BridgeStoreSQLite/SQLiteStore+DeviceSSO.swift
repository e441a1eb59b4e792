import BridgeStore
import Foundation

// MARK: Native SSO device sessions

extension SQLiteStore {
    public func createDeviceSession(_ session: DeviceSessionRecord) async throws {
        try await transaction("device session") { tx in try Self.insertDeviceSession(session, in: tx) }
    }

    /// Also the code redemption's, in its transaction (`CodeRedemptionWrites`).
    static func insertDeviceSession(_ session: DeviceSessionRecord, in tx: Transaction) throws {
        try tx.query(
            """
            INSERT INTO device_sessions (digest, sid, user_id, client_id, sso_group, scope, auth_time, created_at,
                expires_at, ended_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(session.digest.hex), .text(session.sid), .text(session.userID), .text(session.clientID),
                .text(session.group), .text(session.scope), .millis(session.authTime), .millis(session.createdAt),
                .millis(session.expiresAt), .millis(session.endedAt),
            ])
    }

    public func exchangeDeviceSecret(
        _ digest: TokenDigest, claim: DeviceSessionClaim, grant: GrantRecord, issuing: TokenResponseDraft, at now: Date
    ) async throws -> DeviceSecretExchange {
        try await transaction("grant \(grant.id)") { tx in
            guard let row = try tx.query("SELECT * FROM device_sessions WHERE digest = ?", [.text(digest.hex)]).first
            else { return .unknown }
            let session = try Self.deviceSession(row, digest: digest)
            if session.endedAt != nil { return .ended }
            guard session.expiresAt > now else { return .expired }
            guard claim.matches(session) else { return .mismatch(session) }
            try Self.insertGrant(grant, in: tx)
            let (access, refresh) = issuing.records(
                grant: grant.id, clientID: grant.clientID, accessScope: grant.scope, refreshScope: grant.scope)
            try Self.insertAccessTokenNamingIt(access, in: tx)
            if let refresh { try Self.insertRefreshToken(refresh, in: tx) }
            return .exchanged(session)
        }
    }

    public func endDeviceSession(_ digest: TokenDigest, group: String, at now: Date) async throws -> Bool {
        try await transaction("device session end") { tx in
            try tx.query(
                """
                UPDATE device_sessions SET ended_at = ?
                WHERE digest = ? AND sso_group = ? AND ended_at IS NULL AND expires_at > ?
                """, [.millis(now), .text(digest.hex), .text(group), .millis(now)])
            return tx.changes() == 1
        }
    }

    public func endDeviceSession(sid: String, at now: Date) async throws -> Bool {
        try await transaction("device session end") { tx in
            try tx.query(
                "UPDATE device_sessions SET ended_at = ? WHERE sid = ? AND ended_at IS NULL AND expires_at > ?",
                [.millis(now), .text(sid), .millis(now)])
            return tx.changes() == 1
        }
    }

    /// Ends every device session of a user, with their browser sessions (`endSessions`).
    static func endDeviceSessions(userID: String, at now: Date, in tx: Transaction) throws {
        try tx.query(
            "UPDATE device_sessions SET ended_at = ? WHERE user_id = ? AND ended_at IS NULL AND expires_at > ?",
            [.millis(now), .text(userID), .millis(now)])
    }

    static func deviceSession(_ row: SQLiteRow, digest: TokenDigest) throws -> DeviceSessionRecord {
        DeviceSessionRecord(
            digest: digest, sid: try row.text("sid"), userID: try row.text("user_id"), clientID: try row.text("client_id"),
            group: try row.text("sso_group"), scope: try row.text("scope"), authTime: try row.optionalDate("auth_time"),
            createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"),
            endedAt: try row.optionalDate("ended_at"))
    }
}
