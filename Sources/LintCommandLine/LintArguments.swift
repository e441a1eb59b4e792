import ArgumentParser
import Foundation
import ManifestLint

/// What `signin-bridge lint` and the standalone `signin-bridge-lint` share: the options and the run. The standalone
/// executable exists because a CI job that only lints should not pay for loading the server's libraries at start-up.
public struct LintArguments: ParsableArguments {
    /// The help text of both commands.
    public static let discussion = """
        PATHs are files or folders (searched for AndroidManifest.xml, Info.plist, url_schemes.json, \
        assetlinks.json, apple-app-site-association and *.entitlements; build, \
        Pods, node_modules and hidden folders are skipped). Each manifest and plist is compared with \
        --url-schemes, --challenge, or else the nearest url_schemes.json in its folder or above.

        Exit status: 0 no errors (warnings allowed), 1 errors found, 2 usage, unreadable input or nothing \
        found to check.

        Examples:
          signin-bridge lint android/app/src/main ios/App --url-schemes url_schemes.json
          signin-bridge lint . --challenge 'Bearer authorization_uri="…",tokenIssuance_uri="…",UrlSchemes="%7B…%7D"'
          signin-bridge lint . --format sarif --output lint.sarif
        """

    public static let abstract = "Check AndroidManifest.xml, Info.plist and url_schemes.json for app-to-app sign-in."

    public init() {}

    public enum Format: String, ExpressibleByArgument, CaseIterable, Sendable {
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

    @Option(
        name: .customLong("placeholder"),
        help: ArgumentHelp("A Gradle manifest placeholder's value, as manifestPlaceholders sets it (repeatable).", valueName: "name=value"))
    var placeholders: [String] = []

    @Option(help: ArgumentHelp("The res/values/strings.xml that @string/… references in manifests come from.", valueName: "file"))
    var resources: String?

    @Option(
        name: .customLong("build-setting"),
        help: ArgumentHelp("An Xcode build setting's value for $(NAME) in Info.plist (repeatable).", valueName: "NAME=value"))
    var buildSettings: [String] = []

    @Option(
        name: .customLong("redirect-uri"),
        help: ArgumentHelp("A redirect URI the app receives sign-in at; activities matching it are sign-in receivers (repeatable).", valueName: "uri"))
    var redirectURIs: [String] = []

    @Option(
        name: .customLong("assetlinks"),
        help: ArgumentHelp("The assetlinks.json a host serves, or a folder of HOST/.well-known/assetlinks.json (repeatable).", valueName: "host=file|folder"))
    var assetLinks: [String] = []

    @Option(
        name: .customLong("aasa"),
        help: ArgumentHelp("The apple-app-site-association a domain serves, or a folder of DOMAIN/.well-known/… (repeatable).", valueName: "domain=file|folder"))
    var appSiteAssociations: [String] = []

    @Option(
        name: .customLong("signing-cert-sha256"),
        help: ArgumentHelp("The Android app's signing certificate fingerprint, AA:BB:… (repeatable).", valueName: "fingerprint"))
    var signingCertificates: [String] = []

    @Option(
        name: .customLong("signing-cert"),
        help: ArgumentHelp(
            "The Android app's signing certificate: a PEM or DER file (signin-bridge lint only), or its SHA-256 fingerprint (repeatable).",
            valueName: "file|fingerprint"))
    var signingCertificateArguments: [String] = []

    @Option(help: ArgumentHelp("The iOS app ID, when the entitlements' application-identifier is a build setting.", valueName: "TEAMID.bundle"))
    var appId: String?

    @Option(
        name: .customLong("fetch"),
        help: ArgumentHelp(
            "Fetch HOST's assetlinks.json and apple-app-site-association as the platforms do, and check them (repeatable; signin-bridge lint only, not signin-bridge-lint).",
            valueName: "https://host"))
    var fetchOrigins: [String] = []

    @Option(
        name: .customLong("ca-certificate"),
        help: ArgumentHelp("Also trust the roots in this PEM file for --fetch (a staging CA).", valueName: "file"))
    var caCertificate: String?

    @Option(help: ArgumentHelp("Rule settings per path (default: ./signin-bridge-lint.yaml when it exists).", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("Report only findings that this baseline does not hold.", valueName: "file"))
    var baseline: String?

    @Option(help: ArgumentHelp("Record every finding of this run as the baseline, and exit 0.", valueName: "file"))
    var writeBaseline: String?

    @Option(help: "Output format: text, json or sarif.")
    var format: Format = .text

    @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var output: String?

    public func validate() throws {
        if urlSchemesFile != nil && challenge != nil {
            throw ValidationError("give either --url-schemes or --challenge, not both")
        }
        if let targetSdk, targetSdk < 1 { throw ValidationError("--target-sdk must be a positive API level") }
        if baseline != nil && writeBaseline != nil {
            throw ValidationError("give either --baseline or --write-baseline, not both")
        }
        for fingerprint in signingCertificates where !AssetLinksDocument.isFingerprint(fingerprint.uppercased()) {
            throw ValidationError("--signing-cert-sha256 wants 32 colon-separated hex bytes, not \"\(fingerprint)\"")
        }
        _ = try Self.assignments(placeholders, option: "--placeholder")
        _ = try Self.assignments(buildSettings, option: "--build-setting")
        if caCertificate != nil && fetchOrigins.isEmpty { throw ValidationError("--ca-certificate is only used with --fetch") }
    }

    /// `name=value` pairs; the value may be empty and may hold '=', the name may not be empty.
    static func assignments(_ items: [String], option: String) throws -> [String: String] {
        var values = [String: String]()
        for item in items {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw ValidationError("\(option) wants name=value, not \"\(item)\"")
            }
            values[String(item[..<equals])] = String(item[item.index(after: equals)...])
        }
        return values
    }

    /// Lints, prints or writes the report, and throws `ExitCode` for a status other than 0 (`LintInvocation.run`).
    public func run(toolVersion: String) throws {
        try invocation.run(toolVersion: toolVersion)
    }

    /// The same, with `--fetch` fetched by `fetch` and `--signing-cert` files read with `certificateDigest`.
    public func run(toolVersion: String, fetch: WellKnownFetch, certificateDigest: SigningCertificate.Digest? = nil) async throws {
        try await invocation.run(toolVersion: toolVersion, fetch: fetch, certificateDigest: certificateDigest)
    }

    /// The parsed options as plain values.
    public var invocation: LintInvocation {
        var invocation = LintInvocation(paths: paths)
        invocation.urlSchemesFile = urlSchemesFile
        invocation.challenge = challenge
        invocation.targetSdk = targetSdk
        invocation.placeholders = placeholders
        invocation.resources = resources
        invocation.buildSettings = buildSettings
        invocation.redirectURIs = redirectURIs
        invocation.assetLinks = assetLinks
        invocation.appSiteAssociations = appSiteAssociations
        invocation.signingCertificates = signingCertificates
        invocation.signingCertificateArguments = signingCertificateArguments
        invocation.appId = appId
        invocation.fetchOrigins = fetchOrigins
        invocation.caCertificate = caCertificate
        invocation.config = config
        invocation.baseline = baseline
        invocation.writeBaseline = writeBaseline
        invocation.format = format
        invocation.output = output
        return invocation
    }

    /// Below this many files a run is too short for a progress line to help.
    static let progressThreshold = 20
}

/// Exit statuses of lint: 0 no errors, 1 errors found, 2 usage or unreadable input.
public enum LintExit {
    public static let usage: Int32 = 2

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
