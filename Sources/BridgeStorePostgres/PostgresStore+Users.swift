import BridgeStore
import Foundation
import PostgresNIO

/// `pg_notify` of `changesChannel`, selected once per changed row (or once, with `WHERE EXISTS`) inside a statement.
/// The notification is delivered to every listener when, and only if, the statement commits.
let notifyChange = "pg_notify('signin_bridge_changes', '')"

/// The grant columns of a join, as `g_id`, `g_user_id`, …: what `PostgresRandomAccessRow.grant()` reads.
func grantColumns(of alias: String) -> String {
    ["id", "user_id", "client_id", "scope", "session_context", "created_at", "revoked_at"]
        .map { "\(alias).\($0) AS g_\($0)" }
        .joined(separator: ", ")
}

// MARK: Users

extension PostgresStore {
    public func saveUser(_ user: UserRecord) async throws {
        defer { noteChange() }
        try await rows(
            Subject("user \(user.id) or sign-in name \(user.signInName)"),
            """
            WITH saved AS (
                INSERT INTO users (id, sign_in_name, friendly_name, password_hash, email, phone_number)
                VALUES (\(user.id), \(user.signInName), \(user.friendlyName), \(user.passwordHash), \(user.email),
                    \(user.phoneNumber))
                ON CONFLICT (id) DO UPDATE SET sign_in_name = excluded.sign_in_name,
                    friendly_name = excluded.friendly_name, password_hash = excluded.password_hash,
                    email = excluded.email, phone_number = excluded.phone_number
                RETURNING id
            )
            SELECT \(unescaped: notifyChange) FROM saved
            """)
    }

    public func user(id: String) async throws -> UserRecord? {
        try await rows(Subject("user"), "SELECT * FROM users WHERE id = \(id)").first.map(Self.user)
    }

    public func user(signInName: String) async throws -> UserRecord? {
        // The same expression as the unique index, so the index answers it.
        try await rows(
            Subject("user"),
            """
            SELECT * FROM users WHERE lower(sign_in_name COLLATE "C") = lower(\(signInName) COLLATE "C")
            """
        ).first.map(Self.user)
    }

    public func deleteUser(id: String) async throws -> Bool {
        defer { noteChange() }
        let row = try await rows(
            Subject("user deletion"),
            """
            WITH consents_gone AS (DELETE FROM consents WHERE user_id = \(id)),
            deleted AS (DELETE FROM users WHERE id = \(id) RETURNING id),
            notified AS (SELECT \(unescaped: notifyChange) FROM deleted)
            SELECT (SELECT count(*) FROM deleted) AS changed, (SELECT count(*) FROM notified) AS notified
            """
        ).first
        return try row?.int("changed") == 1
    }

    /// One statement: the sessions and grants are found through the updated user, so an unknown user changes nothing.
    public func changePassword(userID: String, passwordHash: String, at now: Date) async throws -> PasswordChange? {
        defer { noteChange() }
        let now = Milliseconds.from(now)
        let row = try await rows(
            Subject("password change"),
            """
            WITH saved AS (UPDATE users SET password_hash = \(passwordHash) WHERE id = \(userID) RETURNING id),
            ended AS (
                UPDATE sessions SET ended_at = \(now)
                WHERE user_id IN (SELECT id FROM saved) AND ended_at IS NULL AND expires_at > \(now) RETURNING digest
            ),
            revoked AS (
                UPDATE grants SET revoked_at = \(now)
                WHERE user_id IN (SELECT id FROM saved) AND revoked_at IS NULL RETURNING id
            ),
            devices AS (
                UPDATE device_sessions SET ended_at = \(now)
                WHERE user_id IN (SELECT id FROM saved) AND ended_at IS NULL AND expires_at > \(now) RETURNING digest
            ),
            notified AS (SELECT \(unescaped: notifyChange) FROM saved)
            SELECT (SELECT count(*) FROM saved) AS found, (SELECT count(*) FROM ended) AS sessions,
                (SELECT count(*) FROM revoked) AS grants, (SELECT count(*) FROM notified) AS notified,
                (SELECT count(*) FROM devices) AS devices
            """
        ).first
        guard let row, try row.int("found") == 1 else { return nil }
        return PasswordChange(endedSessions: try row.int("sessions"), revokedGrants: try row.int("grants"))
    }

    /// A whole `users` row, with the OpenID Connect claim columns.
    static func user(_ row: PostgresRandomAccessRow) throws -> UserRecord {
        var user = try user(row, prefix: "")
        user.email = try row.optionalText("email")
        user.phoneNumber = try row.optionalText("phone_number")
        return user
    }

    /// A `users` row, its columns prefixed (`u_`) when it came through a join.
    static func user(_ row: PostgresRandomAccessRow, prefix: String) throws -> UserRecord {
        UserRecord(
            id: try row.text(prefix + "id"), signInName: try row.text(prefix + "sign_in_name"),
            friendlyName: try row.optionalText(prefix + "friendly_name"),
            passwordHash: try row.optionalText(prefix + "password_hash"))
    }
}

// MARK: Grants

extension PostgresStore {
    public func createGrant(_ grant: GrantRecord) async throws {
        try await rows(Subject("grant \(grant.id)"), Self.insertGrant(grant))
    }

    static func insertGrant(_ grant: GrantRecord) -> PostgresQuery {
        """
        INSERT INTO grants (id, user_id, client_id, scope, session_context, created_at, revoked_at)
        VALUES (\(grant.id.rawValue), \(grant.userID), \(grant.clientID), \(grant.scope), \(grant.sessionContext),
            \(Milliseconds.from(grant.createdAt)), \(Milliseconds.from(grant.revokedAt)))
        """
    }

    /// One statement, so one round trip and one implicit transaction: a data-modifying CTE inserts the grant and the
    /// outer INSERT its access token, whose foreign key is checked at the end of the statement (PostgreSQL docs,
    /// "Data-Modifying Statements in WITH").
    public func createGrant(_ grant: GrantRecord, withAccessToken access: AccessTokenRecord) async throws {
        try await rows(
            Subject("grant \(grant.id)", tables: ["access_tokens": "access token \(access.tokenID)"]),
            """
            WITH new_grant AS (
                INSERT INTO grants (id, user_id, client_id, scope, session_context, created_at, revoked_at)
                VALUES (\(grant.id.rawValue), \(grant.userID), \(grant.clientID), \(grant.scope), \(grant.sessionContext),
                    \(Milliseconds.from(grant.createdAt)), \(Milliseconds.from(grant.revokedAt)))
                RETURNING id)
            INSERT INTO access_tokens (token_id, grant_id, issued_at, expires_at)
            SELECT \(access.tokenID), \(access.grantID.rawValue), \(Milliseconds.from(access.issuedAt)),
                \(Milliseconds.from(access.expiresAt))
            FROM new_grant
            """)
    }

    public func grant(id: GrantID) async throws -> GrantRecord? {
        try await rows(Subject("grant"), "SELECT * FROM grants WHERE id = \(id.rawValue)").first.map { try $0.grant(prefix: "") }
    }

    public func recordSessionContext(_ sessionContext: String, grant: GrantID) async throws -> Bool {
        defer { noteChange() }
        let row = try await rows(
            Subject("session context"),
            """
            WITH changed AS (UPDATE grants SET session_context = \(sessionContext) WHERE id = \(grant.rawValue) RETURNING id),
            notified AS (SELECT \(unescaped: notifyChange) FROM changed)
            SELECT (SELECT count(*) FROM changed) AS changed, (SELECT count(*) FROM notified) AS notified
            """
        ).first
        return try row?.int("changed") == 1
    }

    public func revokeGrant(_ id: GrantID, at now: Date) async throws -> Bool {
        defer { noteChange() }
        // Keeps the first revocation time: only a grant not yet revoked is updated.
        let row = try await rows(
            Subject("grant revocation"),
            """
            WITH found AS (SELECT id FROM grants WHERE id = \(id.rawValue)),
            revoked AS (
                UPDATE grants SET revoked_at = \(Milliseconds.from(now))
                WHERE id = \(id.rawValue) AND revoked_at IS NULL RETURNING id
            ),
            notified AS (SELECT \(unescaped: notifyChange) FROM revoked)
            SELECT (SELECT count(*) FROM found) AS found, (SELECT count(*) FROM notified) AS notified
            """
        ).first
        return try row?.int("found") == 1
    }

    public func revokeGrants(userID: String, at now: Date) async throws -> Int {
        defer { noteChange() }
        let row = try await rows(
            Subject("grant revocation"),
            """
            WITH revoked AS (
                UPDATE grants SET revoked_at = \(Milliseconds.from(now))
                WHERE user_id = \(userID) AND revoked_at IS NULL RETURNING id
            ),
            notified AS (SELECT \(unescaped: notifyChange) WHERE EXISTS (SELECT 1 FROM revoked))
            SELECT (SELECT count(*) FROM revoked) AS changed, (SELECT count(*) FROM notified) AS notified
            """
        ).first
        return try row?.int("changed") ?? 0
    }
}

// MARK: Browser sessions

extension PostgresStore {
    public func createSession(_ session: SessionRecord) async throws {
        try await rows(
            Subject("session"),
            """
            INSERT INTO sessions (digest, user_id, created_at, expires_at)
            VALUES (\(session.digest.hex), \(session.userID), \(Milliseconds.from(session.createdAt)),
                \(Milliseconds.from(session.expiresAt)))
            """)
    }

    public func activeSession(_ digest: TokenDigest, at now: Date) async throws -> SessionRecord? {
        try await rows(
            Subject("session"),
            """
            SELECT user_id, created_at, expires_at FROM sessions
            WHERE digest = \(digest.hex) AND ended_at IS NULL AND expires_at > \(Milliseconds.from(now))
            """
        ).first.map { row in
            SessionRecord(
                digest: digest, userID: try row.text("user_id"), createdAt: try row.date("created_at"),
                expiresAt: try row.date("expires_at"))
        }
    }

    public func endSessions(userID: String, at now: Date) async throws -> Int {
        let now = Milliseconds.from(now)
        let row = try await rows(
            Subject("session end"),
            """
            WITH ended AS (
                UPDATE sessions SET ended_at = \(now)
                WHERE user_id = \(userID) AND ended_at IS NULL AND expires_at > \(now) RETURNING digest
            ),
            devices AS (
                UPDATE device_sessions SET ended_at = \(now)
                WHERE user_id = \(userID) AND ended_at IS NULL AND expires_at > \(now) RETURNING digest
            )
            SELECT count(*) AS changed, (SELECT count(*) FROM devices) AS devices FROM ended
            """
        ).first
        return try row?.int("changed") ?? 0
    }
}
