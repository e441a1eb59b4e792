import BridgeStore
import Foundation
import PostgresNIO

// MARK: Access tokens

extension PostgresStore {
    public func recordAccessToken(_ token: AccessTokenRecord) async throws {
        try await rows(Subject("access token \(token.tokenID)"), Self.insertAccessToken(token))
    }

    static func insertAccessToken(_ token: AccessTokenRecord) -> PostgresQuery {
        """
        INSERT INTO access_tokens (token_id, grant_id, issued_at, expires_at)
        VALUES (\(token.tokenID), \(token.grantID.rawValue), \(Milliseconds.from(token.issuedAt)),
            \(Milliseconds.from(token.expiresAt)))
        """
    }

    public func accessTokenStatus(tokenID: String, at now: Date) async throws -> AccessTokenStatus {
        guard
            let row = try await rows(Subject("access token"), AccessTokenStatusQuery(tokenID: tokenID)).first
        else { return .unknown }
        return try row.accessTokenStatus(tokenID: tokenID, at: now)
    }

    public func revokeAccessToken(tokenID: String, at now: Date) async throws -> Bool {
        defer { noteChange() }
        let row = try await rows(
            Subject("access token revocation"),
            """
            WITH revoked AS (
                UPDATE access_tokens SET revoked_at = coalesce(revoked_at, \(Milliseconds.from(now)))
                WHERE token_id = \(tokenID) RETURNING token_id
            ),
            notified AS (SELECT \(unescaped: notifyChange) FROM revoked)
            SELECT (SELECT count(*) FROM revoked) AS changed, (SELECT count(*) FROM notified) AS notified
            """
        ).first
        return try row?.int("changed") == 1
    }

    public func recordTokenResponse(access: AccessTokenRecord, refresh: RefreshTokenRecord?) async throws {
        // Both INSERTs in one statement: atomic, so a failing refresh token leaves no access token behind.
        try await rows(
            Subject(
                "access token \(access.tokenID)",
                tables: ["access_tokens": "access token \(access.tokenID)", "refresh_tokens": "refresh token"]),
            """
            WITH access AS (
                INSERT INTO access_tokens (token_id, grant_id, issued_at, expires_at)
                VALUES (\(access.tokenID), \(access.grantID.rawValue), \(Milliseconds.from(access.issuedAt)),
                    \(Milliseconds.from(access.expiresAt)))
                RETURNING token_id
            )
            INSERT INTO refresh_tokens (digest, grant_id, client_id, scope, issued_at, expires_at)
            SELECT \(refresh?.digest.hex)::text, \(refresh?.grantID.rawValue)::text, \(refresh?.clientID)::text,
                \(refresh?.scope)::text, \(refresh.map { Milliseconds.from($0.issuedAt) })::bigint,
                \(refresh.flatMap { Milliseconds.from($0.expiresAt) })::bigint
            FROM access WHERE \(refresh != nil)
            """)
    }
}

// MARK: Refresh tokens

extension PostgresStore {
    public func issueRefreshToken(_ token: RefreshTokenRecord) async throws {
        try await rows(
            Subject("refresh token"),
            """
            INSERT INTO refresh_tokens (digest, grant_id, client_id, scope, issued_at, expires_at)
            VALUES (\(token.digest.hex), \(token.grantID.rawValue), \(token.clientID), \(token.scope),
                \(Milliseconds.from(token.issuedAt)), \(Milliseconds.from(token.expiresAt)))
            """)
    }

    public func refreshTokenStatus(_ digest: TokenDigest, at now: Date) async throws -> RefreshTokenStatus {
        let row = try await rows(
            Subject("refresh token"),
            """
            SELECT r.client_id, r.scope, r.issued_at, r.expires_at, r.rotated_at, \(unescaped: grantColumns(of: "g"))
            FROM refresh_tokens r JOIN grants g ON g.id = r.grant_id WHERE r.digest = \(digest.hex)
            """
        ).first
        return try Self.refreshTokenStatus(digest, row: row, at: now)
    }

    /// Revokes the token's grant when the token belongs to `clientID` (RFC 7009 §2.1), in one statement; answers
    /// the token's status as it was before.
    public func revokeRefreshToken(_ digest: TokenDigest, clientID: String, at now: Date) async throws -> RefreshTokenStatus {
        defer { noteChange() }
        let row = try await rows(
            Subject("refresh token revocation"),
            """
            WITH token AS (
                SELECT r.client_id, r.scope, r.issued_at, r.expires_at, r.rotated_at, \(unescaped: grantColumns(of: "g"))
                FROM refresh_tokens r JOIN grants g ON g.id = r.grant_id WHERE r.digest = \(digest.hex)
            ),
            revoked AS (
                UPDATE grants SET revoked_at = \(Milliseconds.from(now))
                WHERE id = (SELECT g_id FROM token WHERE client_id = \(clientID)) AND revoked_at IS NULL
                RETURNING id
            ),
            notified AS (SELECT \(unescaped: notifyChange) FROM revoked)
            SELECT token.*, (SELECT count(*) FROM notified) AS notified FROM token
            """
        ).first
        return try Self.refreshTokenStatus(digest, row: row, at: now)
    }

    static func refreshTokenStatus(_ digest: TokenDigest, row: PostgresRandomAccessRow?, at now: Date) throws
        -> RefreshTokenStatus
    {
        guard let row else { return .unknown }
        return try row.refreshTokenStatus(digest: digest, at: now)
    }
}

// MARK: Housekeeping

extension PostgresStore {
    public func purgeExpired(before cutoff: Date, limit: Int) async throws -> Int {
        var binds = PostgresBindings()
        binds.append(Milliseconds.from(cutoff))
        binds.append(limit)
        let row = try await rows(Subject("purge"), PostgresQuery(unsafeSQL: Self.purgeSQL, binds: binds)).first
        return try row?.int("n") ?? 0
    }

    /// One round trip for every table: a CTE per table deletes at most $2 rows that ended before $1, and the
    /// statement returns their sum. `FOR UPDATE SKIP LOCKED`: rows a request holds (a code being redeemed) are left
    /// for the next batch, and instances that purge at the same moment share the rows instead of waiting on each
    /// other (https://www.postgresql.org/docs/current/sql-select.html#SQL-FOR-UPDATE-SHARE).
    static let purgeSQL: String = {
        let tables = ExpiringTables.all
        let deletes = tables.enumerated().map { index, table in
            let (name, column) = table
            return "d\(index) AS (DELETE FROM \(name) WHERE ctid IN (SELECT ctid FROM \(name) WHERE \(column) < $1"
                + " LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING 1)"
        }
        let counts = tables.indices.map { "(SELECT count(*) FROM d\($0))" }
        return "WITH " + deletes.joined(separator: ",\n") + "\nSELECT " + counts.joined(separator: " + ") + " AS n"
    }()
}
