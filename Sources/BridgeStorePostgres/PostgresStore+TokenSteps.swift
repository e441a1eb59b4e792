import BridgeStore
import Foundation
import PostgresNIO

// MARK: Refresh

extension PostgresStore {
    /// One transaction: the token is read `FOR UPDATE`, so of two concurrent refreshes with one token the second
    /// waits for the first and then sees it rotated (a replay, RFC 9700 §4.14.2). Client and scope are checked
    /// before anything changes (RFC 6749 §6).
    public func refresh(_ request: RefreshRequest, at now: Date, reuseGrace: TimeInterval) async throws -> RefreshOutcome {
        let outcome = try await transaction(
            Subject(
                "refresh token rotation",
                tables: ["access_tokens": "access token \(request.issuing.accessTokenID)", "refresh_tokens": "refresh token"])
        ) { tx -> (RefreshOutcome, changed: Bool) in
            guard
                let row = try await tx.rows(
                    """
                    SELECT r.*, \(unescaped: grantColumns(of: "g"))
                    FROM refresh_tokens r JOIN grants g ON g.id = r.grant_id WHERE r.digest = \(request.presented.hex)
                    FOR UPDATE OF r
                    """
                ).first
            else { return (.unknown, false) }
            var grant = try row.grant()
            let previous = RefreshTokenRecord(
                digest: request.presented, grantID: grant.id, clientID: try row.text("client_id"),
                scope: try row.text("scope"), issuedAt: try row.date("issued_at"), expiresAt: try row.optionalDate("expires_at"))
            guard previous.clientID == request.clientID else { return (.otherClient(previous), false) }
            guard let accessScope = ScopeNarrowing.narrowed(requested: request.requestedScope, granted: previous.scope)
            else { return (.scopeTooWide(previous), false) }
            let rotatedAt = try row.optionalDate("rotated_at")
            if let rotatedAt, reuseGrace <= 0 || now < rotatedAt || now.timeIntervalSince(rotatedAt) > reuseGrace {
                try await tx.rows(
                    """
                    WITH revoked AS (
                        UPDATE grants SET revoked_at = \(Milliseconds.from(now))
                        WHERE id = \(grant.id.rawValue) AND revoked_at IS NULL RETURNING id
                    )
                    SELECT \(unescaped: notifyChange) FROM revoked
                    """)
                return (.replayed(grant.id), true)
            }
            if grant.revokedAt != nil { return (.revoked, false) }
            if let expiresAt = previous.expiresAt, expiresAt <= now { return (.expired, false) }
            let (access, refresh) = request.issuing.records(
                grant: grant.id, clientID: previous.clientID, accessScope: accessScope, refreshScope: previous.scope)
            let context = request.sessionContext.flatMap { $0 == grant.sessionContext ? nil : $0 }
            try await tx.rows(
                """
                WITH retired AS (
                    UPDATE refresh_tokens SET rotated_at = coalesce(rotated_at, \(Milliseconds.from(now)))
                    WHERE digest = \(request.presented.hex)
                ),
                access AS (
                    INSERT INTO access_tokens (token_id, grant_id, issued_at, expires_at)
                    VALUES (\(access.tokenID), \(grant.id.rawValue), \(Milliseconds.from(access.issuedAt)),
                        \(Milliseconds.from(access.expiresAt)))
                ),
                refresh AS (
                    INSERT INTO refresh_tokens (digest, grant_id, client_id, scope, issued_at, expires_at)
                    SELECT \(refresh?.digest.hex)::text, \(grant.id.rawValue), \(previous.clientID), \(previous.scope),
                        \(Milliseconds.from(access.issuedAt)), \(refresh.flatMap { Milliseconds.from($0.expiresAt) })::bigint
                    WHERE \(refresh?.digest.hex)::text IS NOT NULL
                ),
                context AS (
                    UPDATE grants SET session_context = \(context)::text
                    WHERE id = \(grant.id.rawValue) AND \(context)::text IS NOT NULL RETURNING id
                )
                SELECT \(unescaped: notifyChange) FROM context
                """)
            if let context { grant.sessionContext = context }
            return (.rotated(previous: previous, grant: grant, accessScope: accessScope), context != nil)
        }
        if outcome.changed { noteChange() }
        return outcome.0
    }
}

// MARK: Bootstrap

extension PostgresStore {
    /// One statement: the WOPI tokens are inserted only from a live access token, grant and user, the session
    /// context is recorded when it changed, and the token's status comes back in the same round trip.
    public func bootstrap(_ step: BootstrapStep, at now: Date) async throws -> BootstrapStatus {
        let nowMS = Milliseconds.from(now)
        let drafts = step.wopiTokens
        guard
            let row = try await rows(
                Subject("WOPI access token"),
                """
                WITH live AS (
                    SELECT t.grant_id, g.user_id FROM access_tokens t JOIN grants g ON g.id = t.grant_id
                        JOIN users u ON u.id = g.user_id
                    WHERE t.token_id = \(step.accessTokenID) AND t.revoked_at IS NULL AND g.revoked_at IS NULL
                        AND t.expires_at > \(nowMS)
                ),
                inserted AS (
                    INSERT INTO wopi_access_tokens (digest, grant_id, user_id, wopi_source, issued_at, expires_at)
                    SELECT d.digest, live.grant_id, live.user_id, CASE WHEN d.has_source THEN d.source END, d.issued,
                        d.expires
                    FROM live, unnest(\(drafts.map(\.digest.hex))::text[], \(drafts.map { $0.wopiSource ?? "" })::text[],
                        \(drafts.map { $0.wopiSource != nil })::bool[], \(drafts.map { Milliseconds.from($0.issuedAt) })::bigint[],
                        \(drafts.map { Milliseconds.from($0.expiresAt) })::bigint[])
                        AS d (digest, source, has_source, issued, expires)
                    RETURNING digest
                ),
                context AS (
                    UPDATE grants SET session_context = \(step.sessionContext)::text
                    WHERE id = (SELECT grant_id FROM live) AND \(step.sessionContext)::text IS NOT NULL
                        AND session_context IS DISTINCT FROM \(step.sessionContext)::text
                    RETURNING id
                ),
                notified AS (SELECT \(unescaped: notifyChange) FROM context)
                SELECT t.expires_at, t.revoked_at AS t_revoked_at, \(unescaped: grantColumns(of: "g")),
                    u.id AS u_id, u.sign_in_name AS u_sign_in_name, u.friendly_name AS u_friendly_name,
                    u.password_hash AS u_password_hash, (SELECT count(*) FROM inserted) AS recorded,
                    (SELECT count(*) FROM context) AS context, (SELECT count(*) FROM notified) AS notified
                FROM access_tokens t JOIN grants g ON g.id = t.grant_id LEFT JOIN users u ON u.id = g.user_id
                WHERE t.token_id = \(step.accessTokenID)
                """
            ).first
        else { return .unknown }
        var grant = try row.grant()
        if try row.int("recorded") > 0, try row.optionalText("u_id") != nil {
            if try row.int("context") == 1, let context = step.sessionContext {
                grant.sessionContext = context
                noteChange()
            }
            return .active(grant, try Self.user(row, prefix: "u_"))
        }
        if try grant.revokedAt != nil || row.optionalInt64("t_revoked_at") != nil { return .revoked }
        if try row.int("expires_at") <= nowMS { return .expired }
        return .unknown
    }
}
