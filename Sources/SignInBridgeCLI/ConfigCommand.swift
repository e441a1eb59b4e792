import ArgumentParser
import BridgeServer

struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Work with server configuration files.",
        subcommands: [Check.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a configuration file as `serve` would, without starting (exit 2 on errors).",
            discussion: "Environment overrides (SIGNIN_BRIDGE_PORT, …) are applied as at start.")

        @Argument(help: "The YAML configuration file.")
        var file: String

        func run() async throws {
            let loaded = try loadConfigurationOrExit(file)
            for warning in loaded.warnings { printToStandardError("\(file): warning: \(warning)") }
            print("\(file): \(EcosystemHost(configuration: loaded.configuration).summary)")
            if let provider = loaded.configuration.identityProvider { print("\(file): \(provider.summary)") }
            let links = PartnerAppLinkCheck.run(loaded.configuration)
            for line in links.lines { printToStandardError("\(file): \(line)") }
            if links.failed { throw ExitCode(2) }
            print("\(file): ok")
        }
    }
}
