import PostgresNIO

/// The same settings in the two forms postgres-nio takes: the pool's and the `LISTEN` connection's.
extension PostgresStoreConfiguration {
    var clientConfiguration: PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch self.tls {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.maximumConnections = maxConnections
        configuration.options.connectTimeout = connectTimeout
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }

    /// Throws only when TLS is asked for and the system's trust roots cannot be loaded.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS =
            switch self.tls {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        let (seconds, attoseconds) = connectTimeout.components
        configuration.options.connectTimeout = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }

    /// Sent when each connection starts, so they hold for every statement without a round trip of their own
    /// (postgresql.org/docs/15/protocol-message-formats.html, StartupMessage: any run-time parameter may be set).
    /// `application_name` is shown in `pg_stat_activity`, so an operator can tell SignInBridge's connections apart;
    /// `synchronous_commit` is what `durability` means on PostgreSQL.
    var startupParameters: [(String, String)] {
        [("application_name", "signin-bridge"), ("synchronous_commit", durability == .full ? "on" : "off")]
    }
}
