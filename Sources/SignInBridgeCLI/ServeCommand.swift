import ArgumentParser
import BridgeHTTP
import BridgeServer
import Foundation
import Logging
import Metrics
import Prometheus

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the bootstrap server (WOPI bootstrapper, well-known endpoints, /metrics, /auth/health).",
        discussion: """
            Stops gracefully on SIGINT or SIGTERM: requests in flight finish, then the store closes.
            Exit status 2 when the configuration is invalid (every problem is printed with its key path).
            """)

    @Option(help: "The YAML configuration file (see samples/bridge.yaml).")
    var config: String

    @Option(help: "Listen on this host instead of listen.host (an issuer derived from listen follows).")
    var host: String?

    @Option(help: "Listen on this port instead of listen.port (0 picks a free one; a derived issuer follows).")
    var port: Int?

    func run() async throws {
        if ProcessInfo.processInfo.environment["SIGNIN_BRIDGE_CONCURRENCY_POOL"] != "swift" {
            BridgeServerApp.runConcurrencyOnEventLoops()
        }
        if let port, !(0...65535).contains(port) {
            printToStandardError("--port: expected 0…65535, got \(port)")
            throw ExitCode(2)
        }
        // Applied by the loader, so that an issuer derived from the listening address (and every URL derived from
        // the issuer) moves with them.
        let loaded = try loadConfigurationOrExit(config, listenHost: host, listenPort: port)
        // The challenge names the host provider's endpoints: discovery is read before the server is built.
        let configuration: BridgeConfiguration
        do {
            configuration = try await IdentityProviderStartup.resolve(loaded.configuration)
        } catch {
            printToStandardError("\(config): \(error)")
            throw ExitCode(2)
        }
        let level = Logger.Level(rawValue: configuration.log.level) ?? .info
        let format = LineLogHandler.Format(rawValue: configuration.log.format) ?? .logfmt
        LoggingSystem.bootstrap { LineLogHandler(label: $0, format: format, level: level) }
        var logger = Logger(label: "signin-bridge")
        logger.logLevel = level
        for warning in loaded.warnings { logger.warning("configuration", metadata: ["problem": "\(warning)"]) }

        let runtime = try await ServerRuntime.open(configuration, logger: logger)
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: runtime.app.metrics.registry))
        if runtime.createdSigningKeys {
            logger.notice("created signing keys", metadata: ["file": "\(configuration.signingKeys.file)"])
        }
        try await runtime.app.seedUsers()
        let issuer = configuration.issuer
        let startupLogger = logger
        let application = runtime.app.makeApplication { channel in
            let address = channel.localAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "?"
            startupLogger.notice(
                "listening",
                metadata: ["address": "\(address)", "bootstrap": "\(issuer)/wopibootstrapper"])
        }
        // Request and shutdown lines still buffered ("store closed" among them) go out before the process ends.
        defer { LogLineWriter.standardError.flush() }
        try await application.runService()
    }
}
