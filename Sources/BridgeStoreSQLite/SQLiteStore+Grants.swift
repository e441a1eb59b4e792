import BridgeStore
import Foundation

// MARK: Users

extension SQLiteStore {
    public func saveUser(_ user: UserRecord) async throws {
        defer { noteChange() }
        return try await transaction("user \(user.id) or sign-in name \(user.signInName)") { tx in
            try tx.query(
                """
                INSERT INTO users (id, sign_in_name, friendly_name, password_hash, email, phone_number)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET sign_in_name = excluded.sign_in_name,
                    friendly_name = excluded.friendly_name, password_hash = excluded.password_hash,
                    email = excluded.email, phone_number = excluded.phone_number
                """,
                [
                    .text(user.id), .text(user.signInName), .optionalText(user.friendlyName),
                    .optionalText(user.passwordHash), .optionalText(user.email), .optionalText(user.phoneNumber),
                ])
        }
    }

    public func changePassword(userID: String, passwordHash: String, at now: Date) async throws -> PasswordChange? {
        defer { noteChange() }
        return try await transaction("password change") { tx in
            try tx.query("UPDATE users SET password_hash = ? WHERE id = ?", [.text(passwordHash), .text(userID)])
            guard tx.changes() == 1 else { return nil }
            return PasswordChange(
                endedSessions: try Self.endSessions(userID: userID, at: now, in: tx),
                revokedGrants: try Self.revokeGrants(userID: userID, at: now, in: tx))
        }
    }

    public func user(id: String) async throws -> UserRecord? {
        try await read("SELECT * FROM users WHERE id = ?", [.text(id)]).first.map { try Self.userWithClaims($0) }
    }

    public func user(signInName: String) async throws -> UserRecord? {
        try await read("SELECT * FROM users WHERE sign_in_name = ?", [.text(signInName)]).first.map {
            try Self.userWithClaims($0)
        }
    }

    /// Reads the user columns of `row`, prefixed `u_` when the row is a join.
    static func user(_ row: SQLiteRow, prefix: String = "") throws -> UserRecord {
        UserRecord(
            id: try row.text(prefix + "id"), signInName: try row.text(prefix + "sign_in_name"),
            friendlyName: try row.optionalText(prefix + "friendly_name"),
            passwordHash: try row.optionalText(prefix + "password_hash"))
    }

    /// A whole `users` row, with the OpenID Connect claim columns.
    static func userWithClaims(_ row: SQLiteRow) throws -> UserRecord {
        var user = try user(row)
        user.email = try row.optionalText("email")
        user.phoneNumber = try row.optionalText("phone_number")
        return user
    }
}

// MARK: Grants

extension SQLiteStore {
    public func createGrant(_ grant: GrantRecord) async throws {
        try await transaction("grant \(grant.id)") { tx in try Self.insertGrant(grant, in: tx) }
    }

    public func createGrant(_ grant: GrantRecord, withAccessToken access: AccessTokenRecord) async throws {
        try await transaction("grant \(grant.id)") { tx in
            try Self.insertGrant(grant, in: tx)
            try Self.insertAccessTokenNamingIt(access, in: tx)
        }
    }

    static func insertGrant(_ grant: GrantRecord, in tx: Transaction) throws {
        try tx.query(
            """
            INSERT INTO grants (id, user_id, client_id, scope, session_context, created_at, revoked_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(grant.id.rawValue), .text(grant.userID), .text(grant.clientID), .text(grant.scope),
                .optionalText(grant.sessionContext), .millis(grant.createdAt), .millis(grant.revokedAt),
            ])
    }

    public func grant(id: GrantID) async throws -> GrantRecord? {
        try await read("SELECT * FROM grants WHERE id = ?", [.text(id.rawValue)]).first.map { try $0.grant(prefix: "") }
    }

    public func recordSessionContext(_ sessionContext: String, grant: GrantID) async throws -> Bool {
        defer { noteChange() }
        return try await transaction("session context") { tx in
            try tx.query(
                "UPDATE grants SET session_context = ? WHERE id = ?", [.text(sessionContext), .text(grant.rawValue)])
            return tx.changes() == 1
        }
    }

    public func revokeGrant(_ id: GrantID, at now: Date) async throws -> Bool {
        defer { noteChange() }
        return try await transaction("grant revocation") { tx in
            try Self.revokeGrant(id, at: now, in: tx)
            return try !tx.query("SELECT 1 FROM grants WHERE id = ?", [.text(id.rawValue)]).isEmpty
        }
    }

    public func revokeGrants(userID: String, at now: Date) async throws -> Int {
        defer { noteChange() }
        return try await transaction("grant revocation") { tx in try Self.revokeGrants(userID: userID, at: now, in: tx) }
    }

    /// Returns how many grants were active.
    static func revokeGrants(userID: String, at now: Date, in tx: Transaction) throws -> Int {
        try tx.query("UPDATE grants SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL", [.millis(now), .text(userID)])
        return tx.changes()
    }

    /// Keeps the first revocation time when called again.
    static func revokeGrant(_ id: GrantID, at now: Date, in tx: Transaction) throws {
        try tx.query(
            "UPDATE grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", [.millis(now), .text(id.rawValue)])
    }
}

// MARK: Sessions and housekeeping

extension SQLiteStore {
    public func createSession(_ session: SessionRecord) async throws {
        try await transaction("session") { tx in try Self.insertSession(session, in: tx) }
    }

    static func insertSession(_ session: SessionRecord, in tx: Transaction) throws {
        try tx.query(
            "INSERT INTO sessions (digest, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
            [.text(session.digest.hex), .text(session.userID), .millis(session.createdAt), .millis(session.expiresAt)])
    }

    public func activeSession(_ digest: TokenDigest, at now: Date) async throws -> SessionRecord? {
        try await read(
            "SELECT * FROM sessions WHERE digest = ? AND ended_at IS NULL AND expires_at > ?",
            [.text(digest.hex), .millis(now)]
        ).first.map { row in
            SessionRecord(
                digest: digest, userID: try row.text("user_id"), createdAt: try row.date("created_at"),
                expiresAt: try row.date("expires_at"))
        }
    }

    public func endSessions(userID: String, at now: Date) async throws -> Int {
        try await transaction("session end") { tx in try Self.endSessions(userID: userID, at: now, in: tx) }
    }

    /// Returns how many browser sessions were active; the user's Native SSO device sessions end too.
    static func endSessions(userID: String, at now: Date, in tx: Transaction) throws -> Int {
        try tx.query(
            "UPDATE sessions SET ended_at = ? WHERE user_id = ? AND ended_at IS NULL AND expires_at > ?",
            [.millis(now), .text(userID), .millis(now)])
        let ended = tx.changes()
        try endDeviceSessions(userID: userID, at: now, in: tx)
        return ended
    }

    public func purgeExpired(before cutoff: Date, limit: Int) async throws -> Int {
        try await transaction("purge", onThreadPool: true) { tx in
            var count = 0
            // Each batch is found through the table's expiry index (migration 8). Deleting by a bounded rowid list
            // keeps SQLite's rowid set, and the transaction, small (https://sqlite.org/lang_delete.html).
            for (table, column) in ExpiringTables.all {
                try tx.query(
                    "DELETE FROM \(table) WHERE rowid IN (SELECT rowid FROM \(table) WHERE \(column) < ? LIMIT ?)",
                    [.millis(cutoff), .integer(limit)])
                count += tx.changes()
            }
            return count
        }
    }
}
