import Foundation
import Testing

/// `signin-bridge migrate --config FILE`: brings the configured store's schema up to date and exits.
@Suite("CLI: migrate")
struct MigrateCommandTests {
    @Test func postgresMigrationsAreAppliedOnceAndThenThereIsNothingToDo() throws {
        guard let server = ProcessInfo.processInfo.environment["SIGNIN_BRIDGE_TEST_POSTGRES_URL"], !server.isEmpty else {
            Issue.record(
                """
                SIGNIN_BRIDGE_TEST_POSTGRES_URL is not set: run `make test`, or \
                `bash scripts/test/postgres.sh run swift test`
                """)
            return
        }
        let database = "signin_cli_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try Self.psql(server, "CREATE DATABASE \(database)")
        var url = try #require(URLComponents(string: server))
        url.path = "/" + database
        let config = try ServerCommandsTests.temporaryConfig {
            $0.replacingOccurrences(of: "store:\n", with: "store:\n  postgres: {url: \"\(url.string!)\"}\n")
        }
        let first = try CLIRunner.run("migrate", "--config", config)
        #expect(first.status == 0, "\(first.stderr)")
        // Every migration of the schema, however many there are (helpers append them; no count is pinned here).
        #expect(first.stdout.contains("/\(database): ") && !first.stdout.contains("/\(database): 0 migration(s) applied")
            && first.stdout.contains(" migration(s) applied"))
        let second = try CLIRunner.run("migrate", "--config", config)
        #expect(second.status == 0)
        #expect(second.stdout.contains("/\(database): 0 migration(s) applied"))
    }

    @Test func sqliteIsMigratedByOpeningIt() throws {
        let config = try ServerCommandsTests.temporaryConfig()
        let result = try CLIRunner.run("migrate", "--config", config)
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("bridge.sqlite: up to date\n"))
    }

    @Test func aURLWithoutAUserIsAConfigurationError() throws {
        let config = try ServerCommandsTests.temporaryConfig {
            $0.replacingOccurrences(of: "store:\n", with: "store:\n  postgres: {url: \"postgres://db.internal/bridge\"}\n")
        }
        let result = try CLIRunner.run("migrate", "--config", config)
        #expect(result.status == 2)
        #expect(result.stderr.contains("store.postgres.url: PostgreSQL URL: no user name"))
    }

    static func psql(_ url: String, _ command: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [url, "-v", "ON_ERROR_STOP=1", "-qc", command]
        try CLIRunner.launch(process)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
