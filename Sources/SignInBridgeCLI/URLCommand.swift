import ArgumentParser
import SignInProtocol

/// `signin-bridge url decode|encode`: the URLs of the app-to-app flows from a shell.
struct URLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "url",
        abstract: "Decode or build the URLs of the app-to-app sign-in flows.",
        discussion: """
            Examples:
              signin-bridge url decode 'ms-word-tp:code=abcdefg&sc=xyz&action=76d173ad-a43f-4e3c-a5e7-0e7276b4c624'
              signin-bridge url encode back --app word --code abcdefg --sc xyz --action 76d173ad-a43f-4e3c-a5e7-0e7276b4c624
              signin-bridge url encode to --scheme contoso --client-id abcdefg --app word --action 42 --scope wopi
            """,
        subcommands: [DecodeURL.self, EncodeURL.self]
    )
}

struct DecodeURL: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Recognise a sign-in URL and print it as JSON with a \"kind\" field.",
        discussion: """
            Kinds: office_to_url (Office opens the partner app), office_back_url (the partner app answers Office), \
            app_callback (Vipps/MobilePay app-to-app callback), authorization_response (an OAuth redirect with code \
            or error), authorization_request (an OAuth authorize URL). Values are printed percent-decoded.
            Exit status: 0 decoded, 1 the URL is not one of these or breaks a rule (one line on stderr), 2 usage.

            Examples:
              signin-bridge url decode 'ms-word-tp:code=abcdefg&tk=https%3A%2F%2Fcontoso.com%2Fapi%2Ftoken%2F%3Fextra%3Dstuff&sc=xyz&action=76d173ad-a43f-4e3c-a5e7-0e7276b4c624'
              signin-bridge url decode 'Contoso:client_id=abcdefg&response_type=code&scope=wopi&rs=enUS&build=16.1.1234&platform=iOS&app=word&action=76d173ad-a43f-4e3c-a5e7-0e7276b4c624'
              signin-bridge url decode 'merchantapp://app-callback?state=218gz18yveu1ybajwh2g1h3g?error=unknown_error'
              signin-bridge url decode 'https://localhost?state=&code=abcdefg&tk=https%3A%2F%2Fcontoso.com%2Fapi%2Ftoken%2F%3Fextra%3Dstuff'
            """
    )

    @Argument(help: "The URL, quoted for the shell.")
    var url: String

    func run() async throws {
        do {
            try printJSON(try URLReport.decode(url))
        } catch let error as URLReport.Failure {
            throw InvalidInput(error)
        }
    }
}

struct EncodeURL: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Build an Office Back or To URL in the documented form.",
        discussion: """
            Examples:
              signin-bridge url encode back --app word --code abcdefg --tk 'https://contoso.com/api/token/?extra=stuff' --sc xyz --action 76d173ad-a43f-4e3c-a5e7-0e7276b4c624
              signin-bridge url encode back --app excel --error access_denied --error-description 'user cancelled' --action 42
              signin-bridge url encode to --scheme contoso --client-id abcdefg --app word --action 42 --scope wopi --rs enUS --build 16.1.1234 --platform iOS
            """,
        subcommands: [EncodeBackURL.self, EncodeToURL.self]
    )
}

extension OfficeApp: ExpressibleByArgument {}

struct EncodeBackURL: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "back",
        abstract: "Print the Back URL a partner app opens to return to Office: the code or an RFC 6749 error.",
        discussion: """
            Give --code (with optional --tk and --sc) for success, or --error (with optional --error-description and \
            --error-uri) for failure. The URL is decoded again before it is printed.
            Exit status: 0 ok, 1 a value breaks a rule (e.g. an empty code), 2 usage.

            Examples:
              signin-bridge url encode back --app word --code abcdefg --tk 'https://contoso.com/api/token/?extra=stuff' --sc xyz --action 76d173ad-a43f-4e3c-a5e7-0e7276b4c624
              signin-bridge url encode back --app word --error access_denied --error-description 'user cancelled' --action 76d173ad-a43f-4e3c-a5e7-0e7276b4c624
            """
    )

    @Option(help: "The Office app to return to: \(OfficeApp.allCases.map(\.rawValue).joined(separator: ", ")).")
    var app: OfficeApp

    @Option(help: "The authorization code (success).")
    var code: String?

    @Option(help: "Token endpoint URL for this grant, Office `tk` (success only).")
    var tk: String?

    @Option(help: "Session context, Office `sc` (success only).")
    var sc: String?

    @Option(help: "An RFC 6749 error code such as access_denied (failure).")
    var error: String?

    @Option(name: .customLong("error-description"), help: "Human-readable error text (failure only).")
    var errorDescription: String?

    @Option(name: .customLong("error-uri"), help: "A page about the error (failure only).")
    var errorURI: String?

    @Option(help: "The To URL's action, returned byte for byte.")
    var action: String

    func validate() throws {
        switch (code, error) {
        case (nil, nil): throw ValidationError("give --code (success) or --error (failure)")
        case (.some, .some): throw ValidationError("give either --code or --error, not both")
        case (.some, nil):
            if errorDescription != nil || errorURI != nil {
                throw ValidationError("--error-description and --error-uri go with --error")
            }
        case (nil, .some):
            if tk != nil || sc != nil { throw ValidationError("--tk and --sc go with --code") }
        }
    }

    func run() async throws {
        let result: OfficeSignInResult =
            if let code {
                .success(.init(code: code, tokenEndpoint: tk, sessionContext: sc))
            } else {
                .failure(.init(error: error ?? "", errorDescription: errorDescription, errorURI: errorURI))
            }
        let url = OfficeBackURL(app: app, result: result, action: action).url
        do {
            _ = try OfficeBackURL(url: url)
        } catch {
            throw InvalidInput("Back URL: \(error)")
        }
        print(url)
    }
}

struct EncodeToURL: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "to",
        abstract: "Print the To URL Office opens to start sign-in in the partner app (for testing partner apps).",
        discussion: """
            The URL is decoded again before it is printed.
            Exit status: 0 ok, 1 a value breaks a rule (e.g. a scheme with a space), 2 usage.

            Example:
              signin-bridge url encode to --scheme contoso --client-id abcdefg --app word --action 76d173ad-a43f-4e3c-a5e7-0e7276b4c624 --scope wopi --rs enUS --build 16.1.1234 --platform iOS
            """
    )

    @Option(help: "The partner app's URL scheme, without ':'.")
    var scheme: String

    @Option(name: .customLong("client-id"), help: "The OAuth client_id Office uses.")
    var clientID: String

    @Option(help: "The asking Office app's `app` value (word, excel, powerpoint, …).")
    var app: String

    @Option(help: "Opaque value the partner must return unchanged.")
    var action: String

    @Option(help: "Requested scope (Office sends wopi, or nothing).")
    var scope: String?

    @Option(help: "Office UI culture, `rs` (en-US or enUS).")
    var rs: String?

    @Option(help: "Office build number.")
    var build: String?

    @Option(help: "iOS or android.")
    var platform: String?

    @Option(name: .customLong("redirect-uri"), help: "redirect_uri, when the partner expects one.")
    var redirectURI: String?

    @Option(help: "OAuth state.")
    var state: String?

    func run() async throws {
        let query = OfficeAuthorizeQuery(
            clientID: clientID, scope: scope, redirectURI: redirectURI, state: state, culture: rs, build: build,
            platform: platform, app: app)
        let url = OfficeToURL(scheme: scheme, query: query, action: action).url
        do {
            _ = try OfficeToURL(url: url)
        } catch {
            throw InvalidInput("To URL: \(error)")
        }
        print(url)
    }
}
