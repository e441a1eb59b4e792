import ArgumentParser
import Foundation
import ManifestLint

/// One lint run's settings as plain values, and the run itself: what `LintArguments` parses into, and what
/// `signin-bridge-lint` builds directly for its common invocation (only paths), skipping ArgumentParser, whose
/// reflection over the options was 21 M of 207 M instructions of linting the 5,000-line benchmark manifest
/// (scripts/bench/lint.sh, callgrind).
public struct LintInvocation: Sendable {
    public var paths: [String] = []
    public var urlSchemesFile: String?
    public var challenge: String?
    public var targetSdk: Int?
    public var placeholders: [String] = []
    public var resources: String?
    public var buildSettings: [String] = []
    public var redirectURIs: [String] = []
    public var assetLinks: [String] = []
    public var appSiteAssociations: [String] = []
    public var signingCertificates: [String] = []
    /// `--signing-cert`: fingerprints or certificate files (`SigningCertificate`).
    public var signingCertificateArguments: [String] = []
    public var appId: String?
    public var fetchOrigins: [String] = []
    public var caCertificate: String?
    public var config: String?
    public var baseline: String?
    public var writeBaseline: String?
    public var format: LintArguments.Format = .text
    public var output: String?

    public init(paths: [String] = []) {
        self.paths = paths
    }

    /// The invocation when every argument is a path (none starts with `-`, none is ArgumentParser's `help`): then
    /// no option is given, and the defaults need no validation. nil: leave the arguments to ArgumentParser.
    public static func pathsOnly(_ arguments: some Collection<String>) -> LintInvocation? {
        guard !arguments.contains(where: { $0.hasPrefix("-") || $0 == "help" }) else { return nil }
        return LintInvocation(paths: Array(arguments))
    }

    /// Lints, prints or writes the report, and throws `ExitCode` for a status other than 0: `signin-bridge-lint`'s
    /// run. Synchronous, so that the standalone starts no concurrency threads (four, each with its own malloc arena:
    /// 42 more page faults and ~1 ms at start-up, docs/lint-performance.md). `--fetch` is a usage error here that
    /// names the command which has it.
    public func run(toolVersion: String) throws {
        if !fetchOrigins.isEmpty {
            LintExit.printError(Self.fetchUnavailable)
            throw ExitCode(LintExit.usage)
        }
        try report(try options(certificateDigest: nil).options, toolVersion: toolVersion)
    }

    /// The same run after fetching what `--fetch` names with `fetch`, and reading `--signing-cert` files with
    /// `certificateDigest`: `signin-bridge lint`'s.
    public func run(toolVersion: String, fetch: WellKnownFetch, certificateDigest: SigningCertificate.Digest? = nil) async throws {
        var (options, origins) = try options(certificateDigest: certificateDigest)
        if !origins.isEmpty { options.fetched = try await fetch(origins, caCertificate) }
        try report(options, toolVersion: toolVersion)
    }

    /// The linter's options and the `--fetch` origins; a usage error is printed and thrown as exit status 2.
    func options(certificateDigest: SigningCertificate.Digest?) throws -> (options: LintOptions, origins: [WellKnownOrigin]) {
        var options = LintOptions(targetSdk: targetSdk, redirectURIs: redirectURIs)
        options.assetLinks = assetLinks
        options.appSiteAssociations = appSiteAssociations
        options.signingCertificates = signingCertificates
        options.appID = appId
        let origins: [WellKnownOrigin]
        do {
            options.buildValues = BuildValues(
                placeholders: try LintArguments.assignments(placeholders, option: "--placeholder"),
                strings: try resources.map { path throws(LintUsageError) in try StringResources.read(path: path) } ?? [:],
                buildSettings: try LintArguments.assignments(buildSettings, option: "--build-setting"))
            let configPath = config ?? (FileManager.default.fileExists(atPath: LintConfig.fileName) ? LintConfig.fileName : nil)
            options.config = try configPath.map { path throws(LintUsageError) in try LintConfig.load(path: path) }
            options.baseline = try baseline.map { path throws(LintUsageError) in (try Baseline.load(path: path), path) }
            origins = try fetchOrigins.map { argument throws(LintUsageError) in try WellKnownOrigin(argument) }
            for argument in signingCertificateArguments {
                options.signingCertificates.append(try SigningCertificate.fingerprint(argument, digest: certificateDigest))
            }
        } catch {
            LintExit.printError("signin-bridge lint: \(error)")
            throw ExitCode(LintExit.usage)
        }
        return (options, origins)
    }

    /// Lints with `options`, then prints or writes the report.
    func report(_ options: LintOptions, toolVersion: String) throws {
        var options = options
        if let urlSchemesFile { options.urlSchemes = .file(urlSchemesFile) }
        if let challenge { options.urlSchemes = .challenge(challenge) }
        let showProgress = isatty(STDOUT_FILENO) != 0
        let report: LintReport
        do {
            report = try Linter(options: options).lint(paths: paths.isEmpty && fetchOrigins.isEmpty ? ["."] : paths) { done, total in
                guard showProgress, total >= LintArguments.progressThreshold else { return }
                FileHandle.standardError.write(Data("\rchecked \(done)/\(total) files\(done == total ? "\n" : "")".utf8))
            }
        } catch {
            LintExit.printError("signin-bridge lint: \(error)")
            throw ExitCode(LintExit.usage)
        }
        let rendered =
            switch format {
            case .text: TextReport.render(report)
            case .json: JSONReport.render(report)
            case .sarif: SARIFReport.render(report, toolVersion: toolVersion)
            }
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: Data(rendered.utf8)) else {
                LintExit.printError("signin-bridge lint: cannot write \(output)")
                throw ExitCode(LintExit.usage)
            }
        } else {
            FileHandle.standardOutput.write(Data(rendered.utf8))
        }
        if let writeBaseline {
            do {
                try Baseline(findings: report.findings, path: writeBaseline).write(to: writeBaseline)
            } catch {
                LintExit.printError("signin-bridge lint: \(error)")
                throw ExitCode(LintExit.usage)
            }
            return
        }
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }

    /// `--fetch` without an HTTPS client, that is in `signin-bridge-lint`.
    public static let fetchUnavailable = """
        signin-bridge-lint: --fetch is not in this executable (it leaves out the HTTPS client to start faster); \
        run `signin-bridge lint --fetch …` instead
        """
}
