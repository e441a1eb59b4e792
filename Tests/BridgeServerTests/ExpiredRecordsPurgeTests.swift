@testable import BridgeServer
@testable import BridgeStore
@testable import BridgeStoreSQLite
import Foundation
import Logging
import Testing

@Suite("Expired records purge")
struct ExpiredRecordsPurgeTests {
    @Test func expiredRecordsGoAtTheNextIntervalAndLiveOnesStay() async throws {
        let bridge = try await TestBridge.make()
        #expect(bridge.configuration.store.purgeIntervalSeconds == 600)
        #expect(bridge.app.purgeServices.count == 1)
        let grant = GrantRecord(userID: "alice", clientID: "office", scope: "wopi", createdAt: bridge.clock.now)
        try await bridge.store.createGrant(grant)
        func accessToken(_ id: String, expiresIn seconds: TimeInterval) -> AccessTokenRecord {
            AccessTokenRecord(
                tokenID: id, grantID: grant.id, issuedAt: bridge.clock.now,
                expiresAt: bridge.clock.now.addingTimeInterval(seconds))
        }
        let window = TimeInterval(bridge.configuration.signIn.throttle.windowSeconds)
        let expiring = accessToken("expiring", expiresIn: 10)
        let lasting = accessToken("lasting", expiresIn: 3600 + window)
        try await bridge.store.recordAccessToken(expiring)
        try await bridge.store.recordAccessToken(lasting)
        bridge.clock.advance(by: 11 + window)
        #expect(try await accessTokenRows(bridge.store) == 2)

        let purge = ExpiredRecordsPurge(
            store: bridge.store, interval: .milliseconds(20), keep: window, now: { bridge.clock.now },
            logger: Logger(label: "test"))
        let running = Task { try await purge.run() }
        var rows = 2
        for _ in 0..<3_000 where rows != 1 {
            try await Task.sleep(for: .milliseconds(20))
            rows = try await accessTokenRows(bridge.store)
        }
        running.cancel()
        try await running.value
        #expect(rows == 1)
        #expect(try await bridge.store.accessTokenStatus(tokenID: "lasting", at: bridge.clock.now) == .active(lasting, grant))
        try await bridge.store.close()
    }

    /// A failure still inside the throttle window outlives a purge; it used to go at every interval, which reset the
    /// throttle (`signIn.throttle`: failures counted over `windowSeconds`).
    @Test func signInFailuresInsideTheThrottleWindowSurviveThePurge() async throws {
        let bridge = try await TestBridge.make()
        let window = TimeInterval(bridge.configuration.signIn.throttle.windowSeconds)
        let since = bridge.clock.now
        try await bridge.store.recordSignInFailure(keys: ["account:old"], at: bridge.clock.now)
        bridge.clock.advance(by: window - 60)
        try await bridge.store.recordSignInFailure(keys: ["account:recent"], at: bridge.clock.now)
        bridge.clock.advance(by: 120)  // "old" is now past the window, "recent" a minute into it
        let purge = ExpiredRecordsPurge(
            store: bridge.store, interval: .milliseconds(20), keep: window, now: { bridge.clock.now },
            logger: Logger(label: "test"))
        let running = Task { try await purge.run() }
        var counts: [String: Int] = ["account:old": 1]
        for _ in 0..<3_000 where counts["account:old"] != 0 {
            try await Task.sleep(for: .milliseconds(20))
            counts = try await bridge.store.signInFailureCounts(keys: ["account:old", "account:recent"], since: since)
        }
        running.cancel()
        try await running.value
        #expect(counts == ["account:old": 0, "account:recent": 1])
        try await bridge.store.close()
    }

    /// A backlog goes in batches, one store call each, until a batch comes back short.
    @Test func aBacklogIsPurgedInBatches() async throws {
        let bridge = try await TestBridge.make()
        let grant = GrantRecord(userID: "alice", clientID: "office", scope: "wopi", createdAt: bridge.clock.now)
        try await bridge.store.createGrant(grant)
        for index in 0..<10 {
            try await bridge.store.recordAccessToken(
                AccessTokenRecord(
                    tokenID: "t-\(index)", grantID: grant.id, issuedAt: bridge.clock.now,
                    expiresAt: bridge.clock.now.addingTimeInterval(10)))
        }
        let before = bridge.store.roundTrips
        let removed = try await ExpiredRecordsPurge.purge(bridge.store, before: bridge.clock.now.addingTimeInterval(11), batch: 3)
        #expect(removed == 10)
        #expect(bridge.store.roundTrips - before == 4)  // 3, 3, 3, 1
        #expect(try await accessTokenRows(bridge.store) == 0)
        try await bridge.store.close()
    }

    /// Expired rows are invisible through the store's API, so the test counts them directly.
    func accessTokenRows(_ store: SQLiteStore) async throws -> Int {
        Int(try await store.read("SELECT count(*) AS n FROM access_tokens").first?.column("n")?.integer ?? -1)
    }

    @Test func zeroTurnsThePurgeOff() async throws {
        let bridge = try await TestBridge.make(yaml: TestBridge.yaml + "\nstore: {purgeIntervalSeconds: 0}\n")
        #expect(bridge.app.purgeServices.isEmpty)
        try await bridge.store.close()
    }
}
