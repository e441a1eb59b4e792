import ArgumentParser
import BridgeServer
import BridgeStore
import BridgeStorePostgres
import BridgeStoreSQLite
import Logging

/// Which store a configuration names: PostgreSQL when `store.postgres` is present (or `SIGNIN_BRIDGE_STORE_URL`
/// set), else the SQLite default.
enum StoreOpening {
    /// The PostgreSQL settings of `configuration`, if it names PostgreSQL; a URL that cannot be read exits 2.
    static func postgres(_ configuration: BridgeConfiguration) throws -> PostgresStoreConfiguration? {
        guard let settings = configuration.store.postgres else { return nil }
        do {
            return try PostgresStoreConfiguration(
                url: settings.url, maxConnections: settings.maxConnections,
                connectTimeout: .milliseconds(settings.connectTimeoutMilliseconds),
                durability: durability(settings.durability))
        } catch {
            printToStandardError("store.postgres.url: \(error)")
            throw ExitCode(2)
        }
    }

    /// Opens the configured store (running pending migrations); a store that cannot be opened exits 1.
    static func open(_ configuration: BridgeConfiguration, logger: Logger) async throws -> any Store {
        if let postgres = try postgres(configuration) {
            do {
                return try await PostgresStore.open(postgres, logger: logger)
            } catch {
                printToStandardError("store.postgres: cannot open \(postgres.host):\(postgres.port)/\(postgres.database): \(error)")
                throw ExitCode(1)
            }
        }
        do {
            return try await SQLiteStore.open(
                path: configuration.store.sqlite.path, durability: durability(configuration.store.sqlite.durability))
        } catch {
            printToStandardError("store.sqlite.path: cannot open \(configuration.store.sqlite.path): \(error)")
            throw ExitCode(1)
        }
    }

    /// The schema allows only `normal` and `full`, so the fallback is never taken.
    static func durability(_ name: String) -> StoreDurability { StoreDurability(rawValue: name) ?? .normal }
}
