import BridgeServer
import BridgeStore
import BridgeStoreSQLite
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The bootstrapper keeps a token's status for `tokens.statusCacheMilliseconds` at most: a revocation through this
/// server applies to the very next request, one by another process sharing the database (the `signin-bridge user
/// passwd` case, Office manual test 10) once that time has passed.
@Suite("Bootstrap endpoint: revocation")
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

    @Test func aRevocationByAnotherProcessAppliesOnceTheStatusCacheTimeHasPassed() async throws {
        let bridge = try await TestBridge.make()
        #expect(bridge.configuration.tokens.statusCacheMilliseconds == 1000)
        let issued = try await bridge.issueToken()
        // Another process: its own connection to the same file, which this server's store cannot see change.
        let other = try await SQLiteStore.open(path: bridge.configuration.store.sqlite.path)
        try await bridge.app.makeApplication().test(.live) { client async throws in
            #expect(try await Self.bootstrapStatus(client, issued.token) == .ok)
            #expect(try await other.revokeGrants(userID: "alice", at: bridge.clock.now) == 1)
            bridge.clock.advance(by: 0.999)
            #expect(try await Self.bootstrapStatus(client, issued.token) == .ok, "kept for up to a second")
            bridge.clock.advance(by: 0.001)
            #expect(try await Self.bootstrapStatus(client, issued.token) == .unauthorized)
        }
        try await other.close()
    }

    @Test func withoutTheStatusCacheAnotherProcesssRevocationAppliesToTheNextRequest() async throws {
        let bridge = try await TestBridge.make(yaml: TestBridge.yaml + "\ntokens: {statusCacheMilliseconds: 0}\n")
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
