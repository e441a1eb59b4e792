import ArgumentParser
import BridgeServer
import Foundation

/// Loads a configuration for a subcommand; on any problem prints every one (with its key path) to stderr and
/// exits 2, the status the issue asks for configuration errors.
func loadConfigurationOrExit(_ path: String) throws -> LoadedConfiguration {
    do {
        return try ConfigurationLoader().load(file: path)
    } catch {
        printToStandardError(error.description)
        throw ExitCode(2)
    }
}

func printToStandardError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
