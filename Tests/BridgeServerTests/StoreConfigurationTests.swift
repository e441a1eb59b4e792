import BridgeServer
import Foundation
import Testing

/// `store.postgres` picks PostgreSQL over the SQLite default; `SIGNIN_BRIDGE_STORE_URL` sets its URL.
@Suite("Configuration: store")
struct StoreConfigurationTests {
    @Test func sqliteIsTheDefaultStore() throws {
        let configuration = try ConfigurationLoader(environment: [:]).load(yaml: ConfigurationTests.base).configuration
        #expect(configuration.store.postgres == nil)
        #expect(configuration.store.sqlite.path == "data/bridge.sqlite")
    }

    @Test func postgresIsReadWithItsPoolSettings() throws {
        let yaml = ConfigurationTests.base + """

            store:
              postgres: {url: "postgres://bridge@db.internal:5433/bridge", maxConnections: 4, connectTimeoutMilliseconds: 1500}
            """
        let configuration = try ConfigurationLoader(environment: [:]).load(yaml: yaml).configuration
        let postgres = try #require(configuration.store.postgres)
        #expect(postgres.url == "postgres://bridge@db.internal:5433/bridge")
        #expect(postgres.maxConnections == 4)
        #expect(postgres.connectTimeoutMilliseconds == 1500)
    }

    @Test func theEnvironmentVariableSetsTheURL() throws {
        let configuration = try ConfigurationLoader(environment: ["SIGNIN_BRIDGE_STORE_URL": "postgresql://u@h/d"])
            .load(yaml: ConfigurationTests.base).configuration
        let postgres = try #require(configuration.store.postgres)
        #expect(postgres.url == "postgresql://u@h/d")
        #expect(postgres.maxConnections == 10 && postgres.connectTimeoutMilliseconds == 5000)
        #expect(postgres.durability == "full")
    }

    @Test func postgresDurabilityIsReadAndOnlyNormalOrFullIsAccepted() throws {
        let yaml = ConfigurationTests.base + "\nstore: {postgres: {url: postgres://u@h/d, durability: normal}}\n"
        let configuration = try ConfigurationLoader(environment: [:]).load(yaml: yaml).configuration
        #expect(configuration.store.postgres?.durability == "normal")
        let wrong = ConfigurationTests.base + "\nstore: {postgres: {url: postgres://u@h/d, durability: off}}\n"
        #expect(ConfigurationTests.problems(wrong).map(\.keyPath) == ["store.postgres.durability"])
    }

    @Test func aURLThatIsNotPostgresAndAPoolOfNoneAreRefused() {
        let problems = ConfigurationTests.problems(
            ConfigurationTests.base, environment: ["SIGNIN_BRIDGE_STORE_URL": "mysql://u@h/d"])
        #expect(problems.map(\.keyPath) == ["store.postgres.url"])
        #expect(problems.first?.source == "SIGNIN_BRIDGE_STORE_URL")
        let yaml = ConfigurationTests.base + "\nstore: {postgres: {url: postgres://u@h/d, maxConnections: 0}}\n"
        #expect(ConfigurationTests.problems(yaml).map(\.keyPath) == ["store.postgres.maxConnections"])
    }
}
