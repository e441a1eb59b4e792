import BridgeStore
import Foundation
import PostgresNIO

// MARK: Refresh

extension PostgresStore {
    /// The refresh step in one statement: client and scope are checked (`allowed`) before anything changes (RFC 6749
    /// §6), then the token is retired by a conditional UPDATE (why not SKIP LOCKED: see the codes' extension in
    /// `PostgresStore+SingleUse.swift`) and the new access and refresh token and the session context are written
    /// from the retired row. The answer is then told apart in Swift, with `ScopeNarrowing` (the
    /// statement's `<@` is the same test: every requested value among the granted ones).
    public func refresh(_ request: RefreshRequest, at now: Date, reuseGrace: TimeInterval) async throws -> RefreshOutcome {
        let nowMS = Milliseconds.from(now)
        let graceMS = max(0, reuseGrace * 1000)
        // Numbers only, never caller text: safe to write into the statement.
        let withinGrace = "(\(graceMS) > 0 AND rotated_at <= \(nowMS) AND \(nowMS) - rotated_at <= \(graceMS))"
        let requested = request.requestedScope.map { $0.split(separator: " ").map(String.init) } ?? []
        let issuing = request.issuing
        let issuedAt = Milliseconds.from(issuing.issuedAt)
        guard
            let row = try await rows(
                Subject(
                    "refresh token rotation",
                    tables: ["access_tokens": "access token \(issuing.accessTokenID)", "refresh_tokens": "refresh token"]),
                """
                WITH token AS (
                    SELECT r.client_id, r.scope, r.issued_at, r.expires_at, r.rotated_at, \(unescaped: grantColumns(of: "g"))
                    FROM refresh_tokens r JOIN grants g ON g.id = r.grant_id WHERE r.digest = \(request.presented.hex)
                ),
                allowed AS (
                    SELECT * FROM token
                    WHERE client_id = \(request.clientID) AND \(requested)::text[] <@ string_to_array(scope, ' ')
                ),
                retired AS (
                    UPDATE refresh_tokens r SET rotated_at = coalesce(r.rotated_at, \(nowMS)) FROM grants g
                    WHERE r.digest = \(request.presented.hex) AND g.id = r.grant_id AND g.revoked_at IS NULL
                        AND EXISTS (SELECT 1 FROM allowed)
                        AND (r.expires_at IS NULL OR r.expires_at > \(nowMS))
                        AND (r.rotated_at IS NULL OR \(unescaped: withinGrace))
                    RETURNING r.grant_id, r.client_id, r.scope
                ),
                access AS (
                    INSERT INTO access_tokens (token_id, grant_id, issued_at, expires_at)
                    SELECT \(issuing.accessTokenID), grant_id, \(issuedAt), \(Milliseconds.from(issuing.accessExpiresAt))
                    FROM retired
                ),
                refresh AS (
                    INSERT INTO refresh_tokens (digest, grant_id, client_id, scope, issued_at, expires_at)
                    SELECT \(issuing.refreshDigest?.hex)::text, grant_id, client_id, scope, \(issuedAt),
                        \(Milliseconds.from(issuing.refreshExpiresAt))::bigint
                    FROM retired WHERE \(issuing.refreshDigest?.hex)::text IS NOT NULL
                ),
                context AS (
                    UPDATE grants SET session_context = \(request.sessionContext)::text
                    WHERE id = (SELECT grant_id FROM retired) AND \(request.sessionContext)::text IS NOT NULL
                        AND session_context IS DISTINCT FROM \(request.sessionContext)::text
                    RETURNING id
                ),
                replayed AS (
                    UPDATE grants SET revoked_at = \(nowMS)
                    WHERE id = (SELECT g_id FROM allowed) AND revoked_at IS NULL
                        AND NOT EXISTS (SELECT 1 FROM retired)
                        AND (
                            SELECT (rotated_at IS NOT NULL AND NOT \(unescaped: withinGrace))
                                OR ((rotated_at IS NULL OR \(unescaped: withinGrace)) AND g_revoked_at IS NULL
                                    AND (expires_at IS NULL OR expires_at > \(nowMS)))
                            FROM allowed)
                    RETURNING id
                ),
                notified AS (
                    SELECT \(unescaped: notifyChange) FROM (SELECT id FROM replayed UNION ALL SELECT id FROM context) AS c
                )
                SELECT token.*, (SELECT count(*) FROM retired) AS rotated, (SELECT count(*) FROM context) AS context,
                    (SELECT count(*) FROM notified) AS notified
                FROM token
                """
            ).first
        else { return .unknown }
        var grant = try row.grant(prefix: "g_")
        let previous = try row.refreshToken(digest: request.presented, grantID: grant.id)
        let accessScope: String
        switch request.scope(for: previous) {
        case .success(let scope): accessScope = scope
        case .failure(let refusal): return refusal.outcome
        }
        if try row.int("rotated") == 1 {
            if try row.int("context") == 1, let context = request.sessionContext {
                grant.sessionContext = context
                noteChange()
            }
            return .rotated(previous: previous, grant: grant, accessScope: accessScope)
        }
        // The order of the SQLite store: a replay outside the grace first, then revocation, then expiry; a token that
        // looked usable but was not taken lost a race to a concurrent rotation: a replay.
        if let rotatedAt = try row.optionalInt64("rotated_at"),
            !(graceMS > 0 && rotatedAt <= nowMS && Double(nowMS - rotatedAt) <= graceMS)
        {
            noteChange()
            return .replayed(grant.id)
        }
        if grant.revokedAt != nil { return .revoked }
        if let expiresAt = try row.optionalInt64("expires_at"), expiresAt <= nowMS { return .expired }
        noteChange()
        return .replayed(grant.id)
    }
}

// MARK: Bootstrap

extension PostgresStore {
    /// One prepared statement (`BootstrapQuery`): the token's status with its grant and user comes back, and the
    /// session context is recorded when the token is live and the context changed, in the same round trip. The
    /// answer's WOPI tokens are sealed by the server, not recorded.
    public func bootstrap(_ step: BootstrapStep, at now: Date) async throws -> BootstrapStatus {
        let nowMS = Milliseconds.from(now)
        guard let row = try await rows(Subject("bootstrap"), BootstrapQuery(step: step, now: nowMS)).first
        else { return .unknown }
        var grant = try row.grant(prefix: "g_")
        if try row.int("live") > 0, try row.optionalText("u_id") != nil {
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
