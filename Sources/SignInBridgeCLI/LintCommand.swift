import ArgumentParser
import Foundation
import ManifestLint

/// `signin-bridge lint`: checks a partner app's AndroidManifest.xml, Info.plist and url_schemes.json against what
/// the host's bootstrap advertises, for CI.
struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check AndroidManifest.xml, Info.plist and url_schemes.json for app-to-app sign-in.",
        discussion: """
            PATHs are files or folders (searched for AndroidManifest.xml, Info.plist and url_schemes.json; build, \
            Pods, node_modules and hidden folders are skipped). Each manifest and plist is compared with \
            --url-schemes, --challenge, or else the nearest url_schemes.json in its folder or above.

            Exit status: 0 no errors (warnings allowed), 1 errors found, 2 usage, unreadable input or nothing \
            found to check.

            Examples:
              signin-bridge lint android/app/src/main ios/App --url-schemes url_schemes.json
              signin-bridge lint . --challenge 'Bearer authorization_uri="…",tokenIssuance_uri="…",UrlSchemes="%7B…%7D"'
              signin-bridge lint . --format sarif --output lint.sarif
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, sarif
    }

    @Argument(help: "Files or folders to check (default: the current folder).")
    var paths: [String] = []

    @Option(name: .customLong("url-schemes"), help: ArgumentHelp("The url_schemes.json to compare with.", valueName: "file"))
    var urlSchemesFile: String?

    @Option(help: ArgumentHelp("A WWW-Authenticate value whose UrlSchemes to compare with.", valueName: "header"))
    var challenge: String?

    @Option(help: ArgumentHelp("The app's targetSdk, when Gradle sets it rather than the manifest.", valueName: "level"))
    var targetSdk: Int?

    @Option(help: "Output format: text, json or sarif.")
    var format: Format = .text

    @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var output: String?

    func validate() throws {
        if urlSchemesFile != nil && challenge != nil {
            throw ValidationError("give either --url-schemes or --challenge, not both")
        }
        if let targetSdk, targetSdk < 1 { throw ValidationError("--target-sdk must be a positive API level") }
    }

    func run() async throws {
        var options = LintOptions(targetSdk: targetSdk)
        if let urlSchemesFile { options.urlSchemes = .file(urlSchemesFile) }
        if let challenge { options.urlSchemes = .challenge(challenge) }
        let showProgress = isatty(STDOUT_FILENO) != 0
        let report: LintReport
        do {
            report = try Linter(options: options).lint(paths: paths.isEmpty ? ["."] : paths) { done, total in
                guard showProgress, total >= Self.progressThreshold else { return }
                FileHandle.standardError.write(Data("\rchecked \(done)/\(total) files\(done == total ? "\n" : "")".utf8))
            }
        } catch {
            CLIExit.printError("signin-bridge lint: \(error)")
            throw ExitCode(CLIExit.usage)
        }
        let rendered =
            switch format {
            case .text: TextReport.render(report)
            case .json: JSONReport.render(report)
            case .sarif: SARIFReport.render(report, toolVersion: SignInBridge.configuration.version)
            }
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: Data(rendered.utf8)) else {
                CLIExit.printError("signin-bridge lint: cannot write \(output)")
                throw ExitCode(CLIExit.usage)
            }
        } else {
            FileHandle.standardOutput.write(Data(rendered.utf8))
        }
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }

    /// Below this many files a run is too short for a progress line to help.
    static let progressThreshold = 20
}
