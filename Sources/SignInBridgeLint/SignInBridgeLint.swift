import ArgumentParser
import Foundation
import LintCommandLine

/// `signin-bridge-lint`: `signin-bridge lint` without the server, so that a CI job starts it in a few milliseconds.
@main
struct SignInBridgeLint: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "signin-bridge-lint",
        abstract: LintArguments.abstract,
        discussion: LintArguments.discussion.replacingOccurrences(of: "signin-bridge lint", with: "signin-bridge-lint"),
        version: version)

    @OptionGroup var arguments: LintArguments

    func run() throws {
        try arguments.run(toolVersion: Self.version)
    }

    /// ArgumentParser exits 64 on usage errors; lint's documented status for them is 2, as `signin-bridge lint`'s.
    static func main() {
        do {
            // Only paths (how CI runs it): nothing to parse, so ArgumentParser's reflection is skipped.
            if let invocation = LintInvocation.pathsOnly(CommandLine.arguments.dropFirst()) {
                try invocation.run(toolVersion: version)
                Foundation.exit(0)
            }
            var command = try parseAsRoot()
            try command.run()
            Foundation.exit(0)
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            if exitCode(for: error) == .success { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(LintExit.usage)
        }
    }
}
