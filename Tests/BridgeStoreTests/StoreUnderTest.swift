import BridgeStore
import Foundation
import Testing

/// One implementation of `Store` that the contract tests run against. PostgreSQL joins this list later; the tests
/// themselves must not change (ROADMAP.md "Scale out").
struct StoreUnderTest: Sendable, CustomTestStringConvertible {
    let name: String
    let open: @Sendable () async throws -> any Store

    var testDescription: String { name }

    static let all: [StoreUnderTest] = [
        StoreUnderTest(name: "SQLite") {
            try await SQLiteStore.open(path: TemporaryDirectory.make().appendingPathComponent("store.sqlite").path)
        }
    ]
}

enum TemporaryDirectory {
    static func make() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("signin-bridge-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Whole seconds, so that millisecond storage gives back exactly the same `Date`.
let t0 = Date(timeIntervalSince1970: 1_800_000_000)

func seconds(_ s: Double) -> Date { t0.addingTimeInterval(s) }

/// Opens a store, runs `body`, closes the store even when `body` throws.
func withStore(_ kind: StoreUnderTest, _ body: (any Store) async throws -> Void) async throws {
    let store = try await kind.open()
    do {
        try await body(store)
    } catch {
        try? await store.close()
        throw error
    }
    try await store.close()
}

/// A user with an active grant, the starting point of most token tests.
func makeGrant(in store: any Store, user: String = "alice", client: String = "office") async throws -> GrantRecord {
    let grant = GrantRecord(userID: user, clientID: client, scope: "wopi", createdAt: t0)
    try await store.createGrant(grant)
    return grant
}
