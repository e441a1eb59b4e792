import BridgeStore
import Foundation
import PostgresNIO
import Testing

@testable import BridgeStorePostgres
// The contract's fixtures (a signed-in Alice, requests, codes), so both stores' tests build the same records.
@testable import BridgeStoreTesting

/// The statements that take a batch of code flow steps over arrays, sent directly so that each test knows which
/// requests share one statement (through the store, batches form only when requests happen to overlap).
@Suite("PostgresStore batch statements")
struct BatchQueryTests {
    @Test func issueBatchUsesEveryParameterItBinds() {
        #expect(PreparedQueryTests.placeholders(IssueBatchQuery.sql)
            == PreparedQueryTests.numbers(IssueBatchQuery.Parameter.self))
    }

    @Test func redemptionBatchUsesEveryParameterItBinds() {
        #expect(PreparedQueryTests.placeholders(RedemptionBatchQuery.sql)
            == PreparedQueryTests.numbers(RedemptionBatchQuery.Parameter.self))
    }

    /// NULL elements arrive as NULL, in their places, beside values with quotes, commas and non-ASCII text.
    @Test func nullableArraysKeepNullsInPlace() async throws {
        let configuration = try await TestDatabase.make()
        let texts: [String?] = ["a", nil, "b,\"c\" {d}", nil, "é 😀"]
        let numbers: [Int64?] = [nil, 1, -2, nil, .max]
        let rows = try await TestDatabase.admin(configuration) { connection in
            try await connection.query(
                "SELECT t, n FROM unnest(\(NullableArray(texts))::text[], \(NullableArray(numbers))::bigint[]) AS u (t, n)",
                logger: TestDatabase.logger
            ).collect()
        }
        #expect(try rows.map { try $0.decode((String?, Int64?).self) }.map(\.0) == texts)
        #expect(try rows.map { try $0.decode((String?, Int64?).self) }.map(\.1) == numbers)
        let empty = try await TestDatabase.admin(configuration) { connection in
            try await connection.query(
                "SELECT cardinality(\(NullableArray([String?]()))::text[])", logger: TestDatabase.logger
            ).collect()
        }
        #expect(try empty.first?.decode(Int64.self) == 0)
    }

    /// One statement, four requests: only the one whose session and consent hold is issued for (its row names its
    /// place), and the others leave nothing behind, to be sent again alone.
    @Test func anIssueBatchWritesOnlyTheRequestsItAnswers() async throws {
        let store = try await PostgresStore.open(try await TestDatabase.make(), logger: TestDatabase.logger)
        let session = try await AuthorizationStepContract.signedIn(store, at: seconds(5))
        try await store.saveConsent(ConsentRecord(userID: "alice", clientID: "office", scope: "wopi", grantedAt: t0))
        let requests = [
            AuthorizationStepContract.request("wider", scope: "wopi profile"),
            AuthorizationStepContract.request("ok"),
            AuthorizationStepContract.request("too-old", signInAfter: seconds(10)),
            AuthorizationStepContract.request("unknown-session"),
        ]
        let items = requests.enumerated().map { index, pending in
            let (grant, code) = AuthorizationDecision.issued(
                pending, user: UserRecord(id: "", signInName: ""), issue: AuthorizationStepContract.issue("c\(index)"),
                authTime: nil, at: seconds(20))
            let earliest = AuthorizationDecision.earliestSignIn(pending.terms, now: seconds(20))
                .map { Milliseconds.from($0) } ?? Int64.min
            return IssueBatchQuery.Item(
                pending: pending, session: index == 3 ? TokenDigest(of: "nobody") : session, grant: grant, code: code,
                now: Milliseconds.from(seconds(20)), earliestSignIn: earliest)
        }
        let rows = try await store.rows(.init("batch"), IssueBatchQuery(items: items))
        #expect(try rows.map { try $0.int("n") } == [2])
        #expect(try rows.first.map { try PostgresStore.user($0, prefix: "u_") } == AuthorizationStepContract.alice)
        #expect(try rows.first?.optionalDate("s_created_at") == seconds(5))
        #expect(try await store.redeemAuthorizationCode(items[1].code.digest, at: seconds(21))
            == .redeemed(
                AuthorizationDecision.issued(
                    requests[1], user: AuthorizationStepContract.alice, issue: AuthorizationStepContract.issue("c1"),
                    authTime: seconds(5), at: seconds(20)).1,
                GrantRecord(
                    id: items[1].grant.id, userID: "alice", clientID: "office", scope: "wopi", sessionContext: "sc",
                    createdAt: seconds(20))))
        for index in [0, 2, 3] {
            #expect(try await store.grant(id: items[index].grant.id) == nil)
            #expect(try await store.redeemAuthorizationCode(items[index].code.digest, at: seconds(21)) == .unknown)
        }
        try await store.close()
    }

    /// One statement: a live code (sent twice), a used one and an unknown one. The live code is consumed once with its
    /// tokens written; nothing else is touched, so the second attempt, sent again alone, is the replay that revokes.
    @Test func aRedemptionBatchConsumesOnlyLiveCodesOnce() async throws {
        let store = try await PostgresStore.open(try await TestDatabase.make(), logger: TestDatabase.logger)
        let grant = try await makeGrant(in: store)
        let usedGrant = try await makeGrant(in: store, user: "bob")
        let live = SecretToken()
        let used = SecretToken()
        try await store.issueAuthorizationCode(SingleUseContract.code(in: grant, live))
        try await store.issueAuthorizationCode(SingleUseContract.code(in: usedGrant, used))
        #expect(try await store.redeemAuthorizationCode(used.digest, at: seconds(1)) != .unknown)
        func draft(_ id: String) -> TokenResponseDraft {
            TokenResponseDraft(
                issuedAt: seconds(10), accessTokenID: id, accessExpiresAt: seconds(300), refreshDigest: TokenDigest(of: id))
        }
        let items = [
            RedemptionBatchQuery.Item(digest: live.digest, now: Milliseconds.from(seconds(10)), issuing: draft("first")),
            RedemptionBatchQuery.Item(digest: used.digest, now: Milliseconds.from(seconds(10)), issuing: draft("used")),
            RedemptionBatchQuery.Item(digest: live.digest, now: Milliseconds.from(seconds(10)), issuing: draft("again")),
            RedemptionBatchQuery.Item(digest: SecretToken().digest, now: Milliseconds.from(seconds(10)), issuing: nil),
        ]
        let rows = try await store.rows(.init("batch"), RedemptionBatchQuery(items: items))
        let places = try rows.map { try $0.int("n") }
        #expect(places.count == 1)
        #expect(places.allSatisfy { $0 == 1 || $0 == 3 })
        #expect(try rows.first.map { try $0.authorizationCode(digest: live.digest) }
            == SingleUseContract.code(in: grant, live))
        #expect(try rows.first?.grant(prefix: "g_") == grant)
        let winner = places.first == 1 ? "first" : "again"
        let loser = places.first == 1 ? "again" : "first"
        #expect(try await store.accessTokenStatus(tokenID: winner, at: seconds(11)) != .unknown)
        for id in [loser, "used"] { #expect(try await store.accessTokenStatus(tokenID: id, at: seconds(11)) == .unknown) }
        #expect(try await store.grant(id: usedGrant.id)?.revokedAt == nil, "a batch revokes nothing: that is the lone statement's")
        #expect(try await store.redeemAuthorizationCode(live.digest, at: seconds(11)) == .replayed(grant.id))
        try await store.close()
    }

    /// Through the store: 64 redemptions started together share statements (the first one's round trip is still on
    /// the wire when the others arrive), and each still gets its own answer.
    @Test func concurrentRedemptionsShareStatements() async throws {
        let store = try await PostgresStore.open(try await TestDatabase.make(), logger: TestDatabase.logger)
        let grant = try await makeGrant(in: store)
        let codes = (0..<64).map { _ in SecretToken() }
        for code in codes { try await store.issueAuthorizationCode(SingleUseContract.code(in: grant, code)) }
        let before = store.roundTrips
        let redeemed = try await withThrowingTaskGroup(of: Bool.self) { group in
            for code in codes {
                group.addTask {
                    try await store.redeemAuthorizationCode(code.digest, at: seconds(10))
                        == .redeemed(SingleUseContract.code(in: grant, code), grant)
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(redeemed == 64)
        #expect(store.roundTrips - before < 64)
        try await store.close()
    }
}
