import ArgumentParser
import BridgeServer
import Foundation

/// Loads a configuration for a subcommand; on any problem prints every one (with its key path) to stderr and
/// exits 2, the usage status every subcommand shares (see CLIExit).
/// `listenHost`/`listenPort` replace `listen.host`/`listen.port` before the URLs derived from them are built.
func loadConfigurationOrExit(_ path: String, listenHost: String? = nil, listenPort: Int? = nil) throws -> LoadedConfiguration {
    do {
        return try ConfigurationLoader(listenHost: listenHost, listenPort: listenPort).load(file: path)
    } catch {
        printToStandardError(error.description)
        throw ExitCode(2)
    }
}

func printToStandardError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
