import ArgumentParser
import Crypto
import LintCommandLine
import LintFetch

/// `signin-bridge lint`: checks a partner app's AndroidManifest.xml, Info.plist and url_schemes.json against what
/// the host's bootstrap advertises, for CI. The same command ships alone as `signin-bridge-lint`.
struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint", abstract: LintArguments.abstract, discussion: LintArguments.discussion)

    @OptionGroup var arguments: LintArguments

    func run() async throws {
        try await arguments.run(
            toolVersion: SignInBridge.configuration.version, fetch: WellKnownFetcher.fetch,
            certificateDigest: { Array(SHA256.hash(data: $0)) })
    }
}
