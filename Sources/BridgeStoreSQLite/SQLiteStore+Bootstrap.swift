import BridgeStore
import Foundation

/// The bootstrap step, group-committed: concurrent bootstraps share one `INSERT … SELECT … RETURNING` that records
/// the WOPI tokens of every attempt whose access token, grant and user are live, and reads back their grant and user
/// in the same statement. An attempt that got no rows was refused; only then does a read tell why.
extension SQLiteStore {
    struct BootstrapAttempt: Sendable {
        var step: BootstrapStep
        var now: Date
    }

    public func bootstrap(_ step: BootstrapStep, at now: Date) async throws -> BootstrapStatus {
        precondition(!step.wopiTokens.isEmpty, "a bootstrap records at least its ecosystem token")
        let status = try await bootstraps.submit(BootstrapAttempt(step: step, now: now), run: runBootstraps)
        guard case .active(let grant, _) = status, let context = step.sessionContext, context != grant.sessionContext
        else { return status }
        return try await recordingSessionContext(context, in: status)
    }

    /// Office sends the session context on every call and it changes once per sign-in: only a change costs this
    /// second write. A function of its own, so that the usual case's async frame does not hold this path's
    /// temporaries too (2,672 bytes with both).
    @inline(never)
    func recordingSessionContext(_ context: String, in status: BootstrapStatus) async throws -> BootstrapStatus {
        guard case .active(var grant, let user) = status else { return status }
        _ = try await recordSessionContext(context, grant: grant.id)
        grant.sessionContext = context
        return .active(grant, user)
    }

    func runBootstraps(_ attempts: [BootstrapAttempt]) async throws -> [Result<BootstrapStatus, any Error>] {
        let rows: [SQLiteRow]
        do {
            let drafts = attempts.reduce(0) { $0 + $1.step.wopiTokens.count }
            rows = try await writeReturning("WOPI access token", Self.bootstrapSQL(drafts: drafts), attempts.flatMap(Self.binds))
        } catch where attempts.count > 1 {
            // A faulty item (a duplicate digest) fails alone.
            var results: [Result<BootstrapStatus, any Error>] = []
            for attempt in attempts {
                do { results.append(try await runBootstraps([attempt])[0]) } catch { results.append(.failure(error)) }
            }
            return results
        }
        var byDigest: [String: SQLiteRow] = [:]
        for row in rows { byDigest[try row.text("digest")] = row }
        var results: [Result<BootstrapStatus, any Error>] = []
        for attempt in attempts {
            if let row = byDigest[attempt.step.wopiTokens[0].digest.hex] {
                results.append(Result {
                    .active(try Self.grant(row, prefix: "g_"), try Self.user(row, prefix: "u_"))
                })
            } else {
                do { results.append(.success(try await refusedBootstrap(attempt))) } catch { results.append(.failure(error)) }
            }
        }
        return results
    }

    /// Why an attempt recorded nothing: the token's status, or `.unknown` when its user is gone.
    func refusedBootstrap(_ attempt: BootstrapAttempt) async throws -> BootstrapStatus {
        switch try await accessTokenStatus(tokenID: attempt.step.accessTokenID, at: attempt.now) {
        case .active: .unknown
        case .expired: .expired
        case .revoked: .revoked
        case .unknown: .unknown
        }
    }

    static func binds(_ attempt: BootstrapAttempt) -> [SQLiteData] {
        attempt.step.wopiTokens.flatMap { draft in
            [
                .text(draft.digest.hex), .text(attempt.step.accessTokenID), .optionalText(draft.wopiSource),
                .millis(draft.issuedAt), .millis(draft.expiresAt), .millis(attempt.now),
            ]
        }
    }

    /// `v`: digest, access token id, WOPI source, issued, expires, now. The grant and user come back as scalar
    /// subqueries, because RETURNING may only name the inserted table's columns (sqlite.org/lang_returning.html).
    static func bootstrapSQL(drafts: Int) -> String {
        let grant = ["id", "user_id", "client_id", "scope", "session_context", "created_at", "revoked_at"]
            .map { "(SELECT \($0) FROM grants WHERE grants.id = wopi_access_tokens.grant_id) AS g_\($0)" }
        let user = ["id", "sign_in_name", "friendly_name", "password_hash"]
            .map { "(SELECT \($0) FROM users WHERE users.id = wopi_access_tokens.user_id) AS u_\($0)" }
        return """
            INSERT INTO wopi_access_tokens (digest, grant_id, user_id, wopi_source, issued_at, expires_at)
            SELECT v.column1, t.grant_id, g.user_id, v.column3, v.column4, v.column5
            FROM (VALUES \(placeholders(rows: drafts, columns: 6))) AS v
                JOIN access_tokens t ON t.token_id = v.column2
                JOIN grants g ON g.id = t.grant_id
                JOIN users u ON u.id = g.user_id
            WHERE t.revoked_at IS NULL AND g.revoked_at IS NULL AND t.expires_at > v.column6
            RETURNING digest, \((grant + user).joined(separator: ", "))
            """
    }
}
