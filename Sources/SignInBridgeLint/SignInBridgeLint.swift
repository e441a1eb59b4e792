import ArgumentParser
#if os(Linux) && canImport(CMalloc)
import CMalloc
#endif
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
        #if os(Linux) && canImport(CMalloc)
        // Every allocation from glibc's heap, none in a mapping of its own: above 128 KiB (the source map's arrays,
        // libxml2's input, as they grow) glibc maps each one and unmaps it when freed, so the next one faults its
        // pages in again, where freed heap pages are reused. 16 MiB is four times the largest file read (mallopt(3)).
        _ = mallopt(M_MMAP_THRESHOLD, 16 << 20)
        #endif
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
