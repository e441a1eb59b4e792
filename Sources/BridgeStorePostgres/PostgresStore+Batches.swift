import BridgeStore
import Foundation
import PostgresNIO

/// The two steps every code flow takes, grouped when they arrive together (`WriteBatcher`, as the SQLite store groups
/// its token writes): concurrent authorize requests share one `IssueBatchQuery` and concurrent code redemptions one
/// `RedemptionBatchQuery`. A batch takes only the case where everything is in order; any other request is answered by
/// its own statement, as before, so the batch never has to tell a replay from an unknown code.
///
/// Measured with `scripts/bench/flow.sh` (POSTGRES=1): per statement PostgreSQL spends about as much on plan set-up,
/// the commit and waking up for the message as on the rows themselves, and the instance as much on the round trip,
/// so under load a statement of N rows costs little more than one of one row.
struct PostgresStepBatches: Sendable {
    /// Rows in one statement: a bound on its size and on how long the first request in it waits.
    static let maxBatch = 64

    let issues = WriteBatcher<IssueBatchQuery.Item, IssuedInBatch?>(maxBatch: maxBatch, powerOfTwoBatches: false)
    let redemptions = WriteBatcher<RedemptionBatchQuery.Item, RedeemedInBatch?>(
        maxBatch: maxBatch, powerOfTwoBatches: false)
}

/// What `IssueBatchQuery` read for a request it issued a code for.
struct IssuedInBatch: Sendable {
    var user: UserRecord
    var authTime: Date?
}

/// What `RedemptionBatchQuery` consumed for a request.
struct RedeemedInBatch: Sendable {
    var code: AuthorizationCodeRecord
    var grant: GrantRecord
}

extension PostgresStore {
    /// `item` through the batch of authorize requests: its user and sign-in time when its code was issued, nil when
    /// it must be sent alone.
    func issueInBatch(_ item: IssueBatchQuery.Item) async throws -> IssuedInBatch? {
        try await throughBatch(batches.issues, item) { [self] items in try await runIssueBatch(items) }
    }

    /// `item` through the batch of code redemptions: the consumed code and its grant, or nil when it must be sent
    /// alone.
    func redeemInBatch(_ item: RedemptionBatchQuery.Item) async throws -> RedeemedInBatch? {
        try await throughBatch(batches.redemptions, item) { [self] items in try await runRedemptionBatch(items) }
    }

    /// A failed batch (a constraint one request broke) sends every request alone (nil), so each gets its own answer;
    /// a database that cannot be reached fails them all at once.
    private func throughBatch<Item: Sendable, Output: Sendable>(
        _ batcher: WriteBatcher<Item, Output?>, _ item: Item, run: @escaping WriteBatcher<Item, Output?>.Run
    ) async throws -> Output? {
        do {
            return try await batcher.submit(item, run: run)
        } catch let error where Self.isRetriedAlone(error) {
            return nil
        }
    }

    /// A batch runs in the task of the request that started it: when that request is cancelled the others in its
    /// batch are not, so they go alone too (and the cancelled one fails there, as it would have).
    private static func isRetriedAlone(_ error: any Error) -> Bool {
        switch error {
        case StoreError.unavailable, StoreError.closed: false
        default: true
        }
    }

    private func runIssueBatch(_ items: [IssueBatchQuery.Item]) async throws -> [Result<IssuedInBatch?, any Error>] {
        let rows = try await rows(Subject("authorization request", tables: Self.issuedTables), IssueBatchQuery(items: items))
        var answers = [Result<IssuedInBatch?, any Error>](repeating: .success(nil), count: items.count)
        for row in rows {
            let place = try row.int("n") - 1
            answers[place] = Result {
                IssuedInBatch(user: try Self.user(row, prefix: "u_"), authTime: try row.optionalDate("s_created_at"))
            }
        }
        return answers
    }

    private func runRedemptionBatch(
        _ items: [RedemptionBatchQuery.Item]
    ) async throws -> [Result<RedeemedInBatch?, any Error>] {
        let rows = try await rows(
            Subject(
                "authorization code redemption",
                tables: ["access_tokens": "access token", "refresh_tokens": "refresh token"]),
            RedemptionBatchQuery(items: items))
        var answers = [Result<RedeemedInBatch?, any Error>](repeating: .success(nil), count: items.count)
        for row in rows {
            let place = try row.int("n") - 1
            answers[place] = Result {
                RedeemedInBatch(code: try row.authorizationCode(digest: items[place].digest), grant: try row.grant(prefix: "g_"))
            }
        }
        return answers
    }
}
