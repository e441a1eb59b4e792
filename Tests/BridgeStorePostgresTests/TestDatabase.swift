import BridgeStore
import BridgeStoreTesting
import Foundation
import PostgresNIO
import Testing

@testable import BridgeStorePostgres

/// A new, empty database on the test server for each test, so tests run in parallel without seeing each other.
/// The server comes from `SIGNIN_BRIDGE_TEST_POSTGRES_URL`; without it every PostgreSQL test fails, saying how to
/// start one (never skipped: a green run must mean the PostgreSQL store was tested).
enum TestDatabase {
    static let variable = "SIGNIN_BRIDGE_TEST_POSTGRES_URL"

    struct NotConfigured: Error, CustomStringConvertible {
        var description: String {
            """
            \(TestDatabase.variable) is not set, and the PostgreSQL store's tests need a server. Run `make test`, or \
            `bash scripts/test/postgres.sh run swift test`, or start one with `bash scripts/test/postgres.sh start` \
            and export the line it prints (any server where the user may CREATE DATABASE works).
            """
        }
    }

    /// The server's own URL, as configured.
    static func server() throws -> PostgresStoreConfiguration {
        guard let url = ProcessInfo.processInfo.environment[variable], !url.isEmpty else { throw NotConfigured() }
        // Dozens of checks run at once on two cores, each with its own database and pool: a generous timeout, and
        // pools small enough to stay far below the test cluster's max_connections.
        return try PostgresStoreConfiguration(url: url, maxConnections: 4, connectTimeout: .seconds(15))
    }

    /// Creates a database named after a fresh UUID and returns the configuration that reaches it.
    static func make() async throws -> PostgresStoreConfiguration {
        var configuration = try server()
        let name = "signin_bridge_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        _ = try await admin(configuration) { connection in
            // Identifiers cannot be bound; this one is made of [a-z0-9_] above.
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        }
        configuration.database = name
        return configuration
    }

    /// Runs `body` on a connection of its own to `configuration`'s database (not through a store).
    static func admin<T: Sendable>(
        _ configuration: PostgresStoreConfiguration, database: String? = nil,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        var connectionConfiguration = try configuration.connectionConfiguration()
        if let database { connectionConfiguration.database = database }
        let connection = try await PostgresConnection.connect(configuration: connectionConfiguration, id: 0, logger: logger)
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Errors only: the pool logs each failed connection attempt, which the outage tests cause on purpose.
    static let logger: Logger = {
        var logger = Logger(label: "signin-bridge.postgres-tests")
        logger.logLevel = .error
        return logger
    }()
}

/// Opens a store on a new database, runs `body`, closes the store even when `body` throws.
func withPostgresStore(_ body: (PostgresStore) async throws -> Void) async throws {
    let store = try await PostgresStore.open(TestDatabase.make(), logger: TestDatabase.logger)
    do {
        try await body(store)
    } catch {
        try? await store.close()
        throw error
    }
    try await store.close()
}
