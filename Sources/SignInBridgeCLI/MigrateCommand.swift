import ArgumentParser
import BridgeServer
import BridgeStore
import BridgeStorePostgres
import Logging

/// Brings the configured store's schema up to date without serving, for deployments that migrate before they roll
/// out new instances. `serve` migrates on start as well; both are safe to run while other instances start.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply pending store migrations (PostgreSQL or SQLite) and exit.",
        discussion: "Environment overrides (SIGNIN_BRIDGE_STORE_URL, …) are applied as at start.")

    @Option(help: "The YAML configuration file.")
    var config: String

    func run() async throws {
        let configuration = try loadConfigurationOrExit(config).configuration
        let logger = Logger(label: "signin-bridge")
        if let postgres = try StoreOpening.postgres(configuration) {
            do {
                let applied = try await PostgresStore.migrate(postgres, logger: logger)
                print("\(postgres.host):\(postgres.port)/\(postgres.database): \(applied) migration(s) applied")
            } catch {
                printToStandardError("store.postgres: cannot migrate \(postgres.host):\(postgres.port)/\(postgres.database): \(error)")
                throw ExitCode(1)
            }
            return
        }
        // SQLite migrates whenever it opens.
        let store = try await StoreOpening.open(configuration, logger: logger)
        try await store.close()
        print("\(configuration.store.sqlite.path): up to date")
    }
}
