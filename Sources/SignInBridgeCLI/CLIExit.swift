import ArgumentParser
import Foundation

/// The input was read but breaks a protocol rule: exit status 1, one line on stderr.
struct InvalidInput: Error, CustomStringConvertible {
    var description: String
    init(_ error: some CustomStringConvertible) { description = error.description }
}

/// Exit statuses every subcommand shares: 0 ok, 1 invalid input, 2 usage (ArgumentParser's own default for usage
/// errors is 64, which scripts rarely expect).
enum CLIExit {
    static let invalidInput: Int32 = 1
    static let usage: Int32 = 2

    /// Parses, runs, and maps errors to the statuses above.
    static func main(_ root: any AsyncParsableCommand.Type) async -> Never {
        do {
            var command = try root.parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit(0)
        } catch let error as InvalidInput {
            printError(error.description)
            exit(invalidInput)
        } catch let code as ExitCode {
            exit(code.rawValue)
        } catch {
            // --help and --version arrive here as errors whose exit code is success.
            if root.exitCode(for: error) == .success { root.exit(withError: error) }
            printError(root.fullMessage(for: error))
            exit(usage)
        }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

/// Pretty, key-sorted JSON on stdout, so output is stable across platforms and easy to diff.
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(value)
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}
