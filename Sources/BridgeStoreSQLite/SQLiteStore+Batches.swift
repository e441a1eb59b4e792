import BridgeStore
import Foundation

/// The hot writes of the token endpoint, grouped by `WriteBatcher`: concurrent callers share one
/// multi-row statement (and one commit). A batch that fails is run again one item at a time, so each caller gets
/// exactly the answer (and the error naming) it would have had alone and no item is lost to a neighbour's fault.
extension SQLiteStore {
    /// One caller's attempt to consume a code at its own `now`, with the token response to record if it wins.
    struct CodeConsumption: Sendable {
        var digest: TokenDigest
        var now: Date
        var issuing: TokenResponseDraft?
        var sessionContext: String?
        var writes: CodeRedemptionWrites = .none
    }

    /// The tokens of one token response (`recordTokenResponse`).
    struct TokenResponseRecords: Sendable {
        var access: AccessTokenRecord
        var refresh: RefreshTokenRecord?
    }

    static let maxBatch = 128

    // MARK: Authorization codes

    /// The usual case of a redemption: an unused, unexpired code of a live grant. One transaction for the whole
    /// batch: one `UPDATE … FROM (VALUES …) RETURNING` consumes the codes, one INSERT records every winner's token
    /// response, and changed session contexts and device sessions are written, so each redemption is still all or
    /// nothing. `nil` for an
    /// item means "not consumed here": the caller's transaction then tells replay, expiry, revocation and unknown
    /// apart. When a batch holds the same code twice, only its first occurrence takes part, so the second sees it
    /// consumed, exactly as if it had come later. A batch that fails is run again one item at a time.
    func consumeCodes(
        _ attempts: [CodeConsumption]
    ) async throws -> [Result<(AuthorizationCodeRecord, GrantRecord)?, any Error>] {
        do {
            let (consumed, contextChanged) = try await transaction("authorization code redemption") { tx in
                try Self.consumeCodes(attempts, in: tx)
            }
            if contextChanged { noteChange() }
            return consumed.map { .success($0) }
        } catch where attempts.count > 1 {
            var results: [Result<(AuthorizationCodeRecord, GrantRecord)?, any Error>] = []
            for attempt in attempts {
                do { results.append(try await consumeCodes([attempt])[0]) } catch { results.append(.failure(error)) }
            }
            return results
        }
    }

    /// The batch's statements; also says whether a session context changed (`changeCounter` moves after commit).
    static func consumeCodes(
        _ attempts: [CodeConsumption], in tx: Transaction
    ) throws -> ([(AuthorizationCodeRecord, GrantRecord)?], Bool) {
        var firstOccurrence: [String: Int] = [:]
        var binds: [SQLiteData] = []
        for (index, attempt) in attempts.enumerated() where firstOccurrence[attempt.digest.hex] == nil {
            firstOccurrence[attempt.digest.hex] = index
            binds += [.text(attempt.digest.hex), .millis(attempt.now)]
        }
        let rows = try tx.query(
            """
            UPDATE authorization_codes SET redeemed_at = v.column2
            FROM (VALUES \(Self.placeholders(rows: firstOccurrence.count, columns: 2))) AS v
            WHERE authorization_codes.digest = v.column1 AND authorization_codes.redeemed_at IS NULL
                AND authorization_codes.expires_at > v.column2
                AND (SELECT revoked_at FROM grants WHERE id = authorization_codes.grant_id) IS NULL
            RETURNING *, \(Self.grantColumnsOfCode)
            """,
            binds)
        var consumed: [String: SQLiteRow] = [:]
        for row in rows { consumed[try row.text("digest")] = row }
        var results: [(AuthorizationCodeRecord, GrantRecord)?] = []
        var responses: [TokenResponseRecords] = []
        var contextChanged = false
        for (index, attempt) in attempts.enumerated() {
            guard firstOccurrence[attempt.digest.hex] == index, let row = consumed[attempt.digest.hex] else {
                results.append(nil)
                continue
            }
            let code = try row.authorizationCode(digest: attempt.digest)
            var grant = try row.grant(prefix: "g_")
            if let issuing = attempt.issuing { responses.append(Self.tokenResponse(issuing, for: code)) }
            if let session = attempt.writes.deviceSession, session.isWritten(for: code) {
                try Self.insertDeviceSession(session.record(for: code, userID: grant.userID), in: tx)
            }
            if let context = attempt.sessionContext, context != grant.sessionContext {
                try tx.query(
                    "UPDATE grants SET session_context = ? WHERE id = ?", [.text(context), .text(grant.id.rawValue)])
                grant.sessionContext = context
                contextChanged = true
            }
            results.append((code, grant))
        }
        if !responses.isEmpty { try tx.query(insertTokenResponsesSQL(count: responses.count), Self.binds(responses)) }
        return (results, contextChanged)
    }

    /// The records of a token response drafted for a code: its grant, client and scope.
    static func tokenResponse(_ draft: TokenResponseDraft, for code: AuthorizationCodeRecord) -> TokenResponseRecords {
        let (access, refresh) = draft.records(
            grant: code.grantID, clientID: code.clientID, accessScope: code.scope, refreshScope: code.scope)
        return TokenResponseRecords(access: access, refresh: refresh)
    }

    /// Several token responses in one INSERT (the `token_responses` view's trigger writes both tables).
    static func insertTokenResponsesSQL(count: Int) -> String {
        "INSERT INTO token_responses VALUES " + placeholders(rows: count, columns: 10)
    }

    static func binds(_ items: [TokenResponseRecords]) -> [SQLiteData] {
        items.flatMap { item in binds(item.access) + (item.refresh.map(binds) ?? Array(repeating: .null, count: 6)) }
    }

    /// The grant of the code being consumed, as `g_`-prefixed columns: the token endpoint needs it next, and reading
    /// it here saves a round trip. Scalar subqueries, because RETURNING may not name another table directly.
    static let grantColumnsOfCode = ["id", "user_id", "client_id", "scope", "session_context", "created_at", "revoked_at"]
        .map { "(SELECT \($0) FROM grants WHERE grants.id = authorization_codes.grant_id) AS g_\($0)" }
        .joined(separator: ", ")

    // MARK: Token responses

    func recordTokenResponses(_ items: [TokenResponseRecords]) async -> [Result<Void, any Error>] {
        await Self.writeTogether(items) {
            try await write("access token", Self.insertTokenResponsesSQL(count: items.count), Self.binds(items))
        } alone: { item in
            try await recordOneTokenResponse(access: item.access, refresh: item.refresh)
        }
    }

    /// Runs `together` (one atomic statement for every item); if it fails, runs `alone` for each item, so that only
    /// the faulty ones fail and each with its own error.
    static func writeTogether<Item>(
        _ items: [Item], _ together: () async throws -> Void, alone: (Item) async throws -> Void
    ) async -> [Result<Void, any Error>] {
        do {
            try await together()
            return items.map { _ in .success(()) }
        } catch {
            var results: [Result<Void, any Error>] = []
            for item in items {
                do {
                    try await alone(item)
                    results.append(.success(()))
                } catch {
                    results.append(.failure(error))
                }
            }
            return results
        }
    }

    // MARK: Statement text

    /// `(?, ?), (?, ?)` for `rows` rows of `columns` parameters.
    static func placeholders(rows: Int, columns: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        return Array(repeating: row, count: rows).joined(separator: ", ")
    }
}
