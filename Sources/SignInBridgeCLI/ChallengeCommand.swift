import ArgumentParser
import SignInProtocol

/// `signin-bridge challenge parse|build`: the bootstrap `WWW-Authenticate` challenge from a shell.
struct ChallengeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "challenge",
        abstract: "Parse or build the WOPI bootstrap WWW-Authenticate challenge.",
        discussion: """
            Examples:
              signin-bridge challenge parse 'Bearer authorization_uri="https://h.example/a",tokenIssuance_uri="https://h.example/t"'
              signin-bridge challenge build --authorization-uri https://h.example/a --token-uri https://h.example/t --ios contoso
            """,
        subcommands: [ParseChallenge.self, BuildChallenge.self]
    )
}

struct ParseChallenge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Check a WWW-Authenticate value against RFC 9110 and the Office rules; print it as JSON.",
        discussion: """
            Give each WWW-Authenticate header line as its own argument, without the "WWW-Authenticate:" name. \
            Exit status: 0 valid (warnings are listed in the JSON), 1 the header breaks a rule (one line on \
            stderr), 2 usage. What RFC 9110 lets a recipient accept but forbids a sender to write (an empty list \
            element such as a trailing comma) parses, and is listed as a warning on stderr and in the JSON.

            Example:
              signin-bridge challenge parse 'Bearer authorization_uri="https://h.example/a",tokenIssuance_uri="https://h.example/t",providerId="tp_contoso",UrlSchemes="%7B%22iOS%22%3A%5B%22contoso%22%5D%7D"'
            """
    )

    @Argument(help: "One or more WWW-Authenticate header values.")
    var headerValues: [String]

    func validate() throws {
        if headerValues.isEmpty { throw ValidationError("give at least one header value") }
    }

    func run() async throws {
        let challenge: BootstrapChallenge
        do {
            challenge = try BootstrapChallenge.parse(headerValues: headerValues)
        } catch {
            throw InvalidInput(error)
        }
        let senderIssues = BootstrapChallenge.senderIssues(headerValues: headerValues)
        for issue in senderIssues { CLIExit.printError("warning: \(issue)") }
        try printJSON(ChallengeReport(challenge, senderIssues: senderIssues))
    }
}

struct BuildChallenge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Print the documented WWW-Authenticate value for a bootstrap 401.",
        discussion: """
            The value is checked by parsing it back, so what is printed is what `challenge parse` accepts. \
            Exit status: 0 ok, 1 a value breaks a rule (e.g. a non-https endpoint), 2 usage.

            Example:
              signin-bridge challenge build --authorization-uri https://h.example/a --token-uri https://h.example/t --provider-id TPCONTOSO --ios contoso --android 100:com.contoso.app:com.contoso.app.AuthActivity
            """
    )

    @Option(name: .customLong("authorization-uri"), help: "OAuth 2.0 authorization endpoint (https).")
    var authorizationURI: String

    @Option(name: .customLong("token-uri"), help: "OAuth 2.0 token endpoint, sent as tokenIssuance_uri (https).")
    var tokenURI: String

    @Option(name: .customLong("provider-id"), help: "The id registered with Office (letters and digits).")
    var providerId: String?

    @Option(name: .customLong("ios"), help: "An iOS URL scheme; repeat for more, in order.")
    var iOS: [String] = []

    @Option(
        name: .customLong("android"),
        help: ArgumentHelp(
            "VERSIONCODE:PACKAGE:ACTIVITY for an app started by intent, or a plain scheme name; repeat for more.",
            valueName: "entry"))
    var android: [AndroidEntryArgument] = []

    @Option(name: .customLong("uwp"), help: "A UWP URL scheme; repeat for more, in order.")
    var uwp: [String] = []

    @Option(name: .customLong("resource-metadata"), help: "RFC 9728 protected resource metadata URL.")
    var resourceMetadata: String?

    func run() async throws {
        let hasSchemes = !iOS.isEmpty || !android.isEmpty || !uwp.isEmpty
        let challenge = BootstrapChallenge(
            authorizationURI: authorizationURI,
            tokenIssuanceURI: tokenURI,
            providerId: providerId,
            urlSchemes: hasSchemes
                ? UrlSchemes(
                    iOS: iOS.isEmpty ? nil : iOS,
                    android: android.isEmpty ? nil : android.map(\.entry),
                    uwp: uwp.isEmpty ? nil : uwp)
                : nil,
            resourceMetadata: resourceMetadata)
        let header = challenge.headerValue
        do {
            _ = try BootstrapChallenge.parse(headerValue: header)
        } catch {
            throw InvalidInput(error)
        }
        for warning in challenge.warnings { CLIExit.printError("warning: \(warning)") }
        print(header)
    }
}

/// `--android 100:com.contoso.app:com.contoso.app.AuthActivity` or `--android contoso`.
struct AndroidEntryArgument: ExpressibleByArgument {
    var entry: UrlSchemes.AndroidEntry

    init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 1 where !parts[0].isEmpty:
            entry = .scheme(parts[0])
        case 3:
            guard let code = Int(parts[0]), code >= 0, !parts[1].isEmpty, !parts[2].isEmpty else { return nil }
            entry = .app(AndroidAppEntry(minimumVersionCode: code, packageName: parts[1], authActivity: parts[2]))
        default:
            return nil
        }
    }
}
