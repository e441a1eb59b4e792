import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The bootstrapper reuses a token's status for `tokens.statusCacheMilliseconds`: a revocation made through this
/// server must still apply to the very next request, and one made by another process sharing the database (the
/// `signin-bridge user passwd` case, Office manual test 10) within that time and no later.
@Suite("Bootstrap endpoint: revocation while statuses are reused")
struct BootstrapRevocationTests {
    static func bootstrapStatus(_ client: some TestClientProtocol, _ token: String) async throws -> HTTPResponse.Status {
        try await client.execute(
            uri: "/wopibootstrapper", method: .get, headers: [.authorization: "Bearer \(token)"]
        ) { $0.status }
    }

    @Test func aRevocationThroughThisServerAppliesToTheNextRequest() async throws {
        let bridge = try await TestBridge.make()
        #expect(bridge.configuration.tokens.statusCacheMilliseconds == 1000)
        let issued = try await bridge.issueToken()
        try await bridge.app.makeApplication().test(.live) { client async throws in
            #expect(try await Self.bootstrapStatus(client, issued.token) == .ok)
            #expect(try await Self.bootstrapStatus(client, issued.token) == .ok)
            _ = try await bridge.store.revokeGrant(issued.grantID, at: bridge.clock.now)
            #expect(try await Self.bootstrapStatus(client, issued.token) == .unauthorized)
        }
    }

    @Test func aUserRemovedThroughThisServerIsRefusedAtOnce() async throws {
        let bridge = try await TestBridge.make()
        let issued = try await bridge.issueToken()
        try await bridge.app.makeApplication().test(.live) { client async throws in
            #expect(try await Self.bootstrapStatus(client, issued.token) == .ok)
            #expect(try await bridge.store.deleteUser(id: "alice"))
            #expect(try await Self.bootstrapStatus(client, issued.token) == .unauthorized)
        }
    }

    @Test func aRevocationByAnotherProcessAppliesWithinTheCacheTime() async throws {
        let bridge = try await TestBridge.make()
        let issued = try await bridge.issueToken()
        // Another process: its own connection to the same file, which this server's store cannot see change.
        let other = try await SQLiteStore.open(path: bridge.configuration.store.sqlite.path)
        try await bridge.app.makeApplication().test(.live) { client async throws in
            #expect(try await Self.bootstrapStatus(client, issued.token) == .ok)
            #expect(try await other.revokeGrants(userID: "alice", at: bridge.clock.now) == 1)
            bridge.clock.advance(by: 0.5)
            #expect(try await Self.bootstrapStatus(client, issued.token) == .ok, "reused for up to 1 s")
            bridge.clock.advance(by: 0.5)
            #expect(try await Self.bootstrapStatus(client, issued.token) == .unauthorized)
        }
        try await other.close()
    }

    @Test func withNoCacheTimeEveryRequestAsksTheStore() async throws {
        let yaml = TestBridge.yaml + "\ntokens: {statusCacheMilliseconds: 0}\n"
        let bridge = try await TestBridge.make(yaml: yaml)
        let issued = try await bridge.issueToken()
        let other = try await SQLiteStore.open(path: bridge.configuration.store.sqlite.path)
        try await bridge.app.makeApplication().test(.live) { client async throws in
            #expect(try await Self.bootstrapStatus(client, issued.token) == .ok)
            #expect(try await other.revokeGrants(userID: "alice", at: bridge.clock.now) == 1)
            #expect(try await Self.bootstrapStatus(client, issued.token) == .unauthorized)
        }
        try await other.close()
    }
}
