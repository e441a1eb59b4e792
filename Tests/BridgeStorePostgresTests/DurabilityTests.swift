import BridgeStore
import PostgresNIO
import Testing

@testable import BridgeStorePostgres

/// `durability` reaches every pooled connection as `synchronous_commit`, whatever the database's own default is.
@Suite("PostgresStore durability")
struct DurabilityTests {
    @Test(arguments: [(StoreDurability.normal, "off"), (.full, "on")])
    func theSettingReachesTheStoresConnections(durability: StoreDurability, expected: String) async throws {
        var configuration = try await TestDatabase.make()
        // The database's default is the opposite of what the store asks for, so only the store's setting can win.
        let opposite = expected == "on" ? "off" : "on"
        _ = try await TestDatabase.admin(configuration) { connection in
            try await connection.query(
                PostgresQuery(unsafeSQL: "ALTER DATABASE \(configuration.database) SET synchronous_commit = \(opposite)"),
                logger: TestDatabase.logger)
        }
        configuration.durability = durability
        let store = try await PostgresStore.open(configuration, logger: TestDatabase.logger)
        let shown = try await store.rows(.init("durability check"), "SHOW synchronous_commit").first?
            .text("synchronous_commit")
        try await store.close()
        #expect(shown == expected)
    }
}
