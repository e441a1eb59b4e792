import ArgumentParser
import Conformance
import Foundation

/// `signin-bridge conform <bootstrap-url>`: walks a live host through the bootstrapper and sign-in as Office, a
/// partner app and an attacker would, and reports each rule.
struct ConformCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conform",
        abstract: "Run the conformance suite against a WOPI host's bootstrapper and OAuth server.",
        discussion: """
            One line per check (PASS|FAIL|WARN|SKIP id: detail), printed as each check finishes (on stderr when \
            stdout carries JSON, JUnit or --output), then "N passed, N failed, …"; a line on stderr before each \
            sign-in. Checks whose inputs are missing (no client, no user, a step that failed) are skipped at once, \
            never passed. An OAuth/OpenID server without a bootstrapper is named by --issuer instead of the URL. \
            docs/conformance.md lists every check with its source.
            Groups (--only):
            \(CheckGroup.allCases.map { "  \($0.rawValue): \($0.summary)" }.joined(separator: "\n"))
            Exit status: 0 every MUST passed, 1 a MUST failed, 2 usage or the host did not answer.

            Example (make run in another terminal):
              signin-bridge conform http://127.0.0.1:8080/wopibootstrapper --insecure-http-loopback \\
                --client-id office --client-secret office-demo-secret --redirect-uri https://localhost \\
                --username demo@example.com --password demo-password \\
                --public-client-id partner-app --public-redirect-uri com.example.partner:/oauth2redirect \\
                --wopi-src http://127.0.0.1:8080/wopi/files/demo
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, junit
    }

    @Argument(help: "The host's bootstrap URL (https; http on loopback with --insecure-http-loopback).")
    var bootstrapURL: String?
    @Option(help: "An OAuth/OpenID server without a bootstrapper: its issuer, for discovery (instead of the URL).")
    var issuer: String?
    @Option(help: "scope on Office's authorize request (default: none with a bootstrap URL, openid with --issuer).")
    var scope: String?

    @Option(name: .customLong("client-id"), help: "Office's confidential client id at the host.")
    var clientID: String?
    @Option(name: .customLong("client-secret"), help: "Its secret (never printed).")
    var clientSecret: String?
    @Option(name: .customLong("redirect-uri"), help: "Its registered redirect URI (Office's is https://localhost).")
    var redirectURI: String = "https://localhost"
    @Option(help: "The test user's sign-in name.")
    var username: String?
    @Option(help: "The test user's password (never printed).")
    var password: String?
    @Option(name: .customLong("wopi-src"), help: "A WopiSrc the host serves, for GET_NEW_ACCESS_TOKEN.")
    var wopiSrc: String?
    @Option(name: .customLong("public-client-id"), help: "A partner app's public client id, for the PKCE checks.")
    var publicClientID: String?
    @Option(name: .customLong("public-redirect-uri"), help: "Its registered redirect URI.")
    var publicRedirectURI: String?
    @Option(name: .customLong("app-to-app-client-id"), help: "A public client that may use requested_flow=app_to_app.")
    var appToAppClientID: String?
    @Option(name: .customLong("app-to-app-redirect-uri"), help: "Its registered redirect URI.")
    var appToAppRedirectURI: String?
    @Option(name: .customLong("app-callback-uri"), help: "Its registered app_callback_uri.")
    var appCallbackURI: String?
    @Option(name: .customLong("app-to-app-decision-uri"), help: "Where the host's own app approves an app_to_app request (ours: <issuer>/oauth2/app-to-app/decision), for apptoapp.resume-single-use.")
    var appToAppDecisionURI: String?
    @Option(name: .customLong("app-to-app-v2-client-id"), help: "A merchant client that may use requested_flow=app_to_app_v2 (Vipps Simple Login).")
    var simpleLoginClientID: String?
    @Option(name: .customLong("app-to-app-v2-redirect-uri"), help: "Its registered https redirect URI.")
    var simpleLoginRedirectURI: String?
    @Option(name: .customLong("exchange-client-id"), help: "A confidential client of the public client's merchant that redeems /oauth/exchange codes.")
    var exchangeClientID: String?
    @Option(name: .customLong("exchange-client-secret"), help: "Its secret (never printed).")
    var exchangeClientSecret: String?
    @Option(name: .customLong("first-party-client-id"), help: "The host's own app's client, allowed at the authorization challenge endpoint.")
    var firstPartyClientID: String?
    @Option(name: .customLong("first-party-client-secret"), help: "Its secret, when it is confidential (never printed).")
    var firstPartyClientSecret: String?
    @Option(name: .customLong("native-sso-client-id"), help: "Native SSO: the first app's public client, which signs in with device_sso.")
    var nativeSSOClientID: String?
    @Option(name: .customLong("native-sso-redirect-uri"), help: "Its registered redirect URI.")
    var nativeSSORedirectURI: String?
    @Option(name: .customLong("native-sso-second-client-id"), help: "Native SSO: a second app of the same vendor, which exchanges the first's ID token and device secret.")
    var nativeSSOSecondClientID: String?
    @Option(name: .customLong("native-sso-second-client-secret"), help: "Its secret, when it is confidential (never printed).")
    var nativeSSOSecondClientSecret: String?
    @Option(name: .customLong("attester-key"), help: "A PEM P-256 private key of a client attester the host trusts (attest_jwt_client_auth).")
    var attesterKey: String?
    @Option(name: .customLong("attested-client-id"), help: "A client the host lets authenticate with that attester's attestations.")
    var attestedClientID: String?
    @Option(
        name: .customLong("app-link"),
        help: "A partner app's https sign-in callback that the host's apple-app-site-association and assetlinks.json must open in the app (repeatable).")
    var appLinks: [String] = []
    @Option(name: .customLong("refresh-grace-seconds"), help: "The grace window the host documents for a rotated refresh token; the reuse checks replay after it.")
    var refreshGraceSeconds: Int64 = 0
    @Option(
        name: .customLong("only"), parsing: .upToNextOption,
        help: ArgumentHelp("Run only these groups.", valueName: "group"))
    var only: [String] = []
    @Option(help: "text, json or junit.")
    var format: Format = .text
    @Option(help: "Write the results here instead of stdout (the counts line still goes to stdout).")
    var output: String?
    @Option(help: "Also write a self-contained HTML report (results and a sequence diagram, secrets masked).")
    var report: String?
    @Flag(name: .customLong("insecure-http-loopback"), help: "Allow http URLs on loopback hosts (development).")
    var insecureHTTPLoopback = false
    @Flag(help: "Print the authorize URL and read the final redirected URL from stdin, for sign-in pages that cannot be automated.")
    var manual = false
    @Option(name: .customLong("timeout"), help: "Seconds per request.")
    var timeoutSeconds: Int64 = 5
    @Option(name: .customLong("deadline"), help: "Seconds for the whole run; checks not started by then are skipped.")
    var deadlineSeconds: Int64 = 120

    func validate() throws {
        for group in only where CheckGroup(rawValue: group) == nil {
            throw ValidationError("unknown group \(group); groups: \(CheckGroup.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if (clientID == nil) != (clientSecret == nil) { throw ValidationError("give --client-id and --client-secret together") }
        if (username == nil) != (password == nil) { throw ValidationError("give --username and --password together") }
        if (publicClientID == nil) != (publicRedirectURI == nil) {
            throw ValidationError("give --public-client-id and --public-redirect-uri together")
        }
        if timeoutSeconds < 1 { throw ValidationError("--timeout must be at least 1") }
        if refreshGraceSeconds < 0 || refreshGraceSeconds > 600 { throw ValidationError("--refresh-grace-seconds must be 0 to 600") }
        if deadlineSeconds < 1 { throw ValidationError("--deadline must be at least 1") }
        if Set([appToAppClientID == nil, appToAppRedirectURI == nil, appCallbackURI == nil]).count > 1 {
            throw ValidationError("give --app-to-app-client-id, --app-to-app-redirect-uri and --app-callback-uri together")
        }
        if (exchangeClientID == nil) != (exchangeClientSecret == nil) {
            throw ValidationError("give --exchange-client-id and --exchange-client-secret together")
        }
        if Set([nativeSSOClientID == nil, nativeSSORedirectURI == nil, nativeSSOSecondClientID == nil]).count > 1 {
            throw ValidationError("give --native-sso-client-id, --native-sso-redirect-uri and --native-sso-second-client-id together")
        }
        if (simpleLoginClientID == nil) != (simpleLoginRedirectURI == nil) {
            throw ValidationError("give --app-to-app-v2-client-id and --app-to-app-v2-redirect-uri together")
        }
        if (attesterKey == nil) != (attestedClientID == nil) {
            throw ValidationError("give --attester-key and --attested-client-id together")
        }
        if (bootstrapURL == nil) == (issuer == nil) { throw ValidationError("give a bootstrap URL or --issuer (one of them)") }
        for link in appLinks where !(link.hasPrefix("https://") || (insecureHTTPLoopback && link.hasPrefix("http://"))) {
            throw ValidationError("--app-link \(link): an https URL (http only to loopback with --insecure-http-loopback)")
        }
    }

    func run() async throws {
        var options = ConformanceOptions(
            bootstrapURL: bootstrapURL, issuer: issuer, wopiSrc: wopiSrc,
            groups: Set(only.compactMap(CheckGroup.init(rawValue:))), allowLoopbackHTTP: insecureHTTPLoopback,
            timeoutSeconds: timeoutSeconds, deadlineSeconds: deadlineSeconds)
        if let scope { options.scope = scope }
        options.refreshGraceSeconds = refreshGraceSeconds
        options.appLinks = appLinks
        if let clientID, let clientSecret {
            options.office = .init(id: clientID, secret: clientSecret, redirectURI: redirectURI)
        }
        if let username, let password { options.user = .init(username: username, password: password) }
        if let publicClientID, let publicRedirectURI {
            options.publicClient = .init(id: publicClientID, redirectURI: publicRedirectURI)
        }
        if let appToAppClientID, let appToAppRedirectURI, let appCallbackURI {
            options.appToAppClient = .init(id: appToAppClientID, redirectURI: appToAppRedirectURI, callbackURI: appCallbackURI)
        }
        options.appToAppDecisionURI = appToAppDecisionURI
        if let simpleLoginClientID, let simpleLoginRedirectURI {
            options.simpleLoginClient = .init(id: simpleLoginClientID, redirectURI: simpleLoginRedirectURI)
        }
        if let exchangeClientID, let exchangeClientSecret {
            options.exchangeTarget = .init(id: exchangeClientID, secret: exchangeClientSecret, redirectURI: "")
        }
        if let firstPartyClientID { options.firstPartyClient = .init(id: firstPartyClientID, secret: firstPartyClientSecret) }
        if let nativeSSOClientID, let nativeSSORedirectURI, let nativeSSOSecondClientID {
            options.nativeSSOApps = .init(
                first: .init(id: nativeSSOClientID, redirectURI: nativeSSORedirectURI),
                second: .init(id: nativeSSOSecondClientID, secret: nativeSSOSecondClientSecret))
        }
        if let attesterKey, let attestedClientID {
            guard let pem = try? String(contentsOfFile: attesterKey, encoding: .utf8) else {
                CLIExit.printError("conform: --attester-key \(attesterKey): cannot read the file")
                throw ExitCode(CLIExit.usage)
            }
            options.attestation = .init(attesterKeyPEM: pem, clientID: attestedClientID)
        }
        if manual { options.manualSignIn = { await ManualSignIn.ask($0) } }

        let progress = ProgressLine()
        // Text to stdout is the live output itself; any other stdout keeps the live lines on stderr.
        let liveOnStdout = format == .text && output == nil
        let report: ConformanceReport
        do {
            report = try await ConformanceRunner(options: options).run(
                starting: { id, index, count in progress.show("[\(index + 1)/\(count)] \(id)") },
                announce: { text in progress.line(text) },
                finished: { result in
                    progress.clear()
                    let line = Data((TextOutput.line(result) + "\n").utf8)
                    if liveOnStdout { FileHandle.standardOutput.write(line) } else { FileHandle.standardError.write(line) }
                })
        } catch {
            progress.clear()
            CLIExit.printError("conform: \(error)")
            throw ExitCode(CLIExit.usage)
        }
        progress.clear()

        let rendered: String
        switch format {
        case .text: rendered = liveOnStdout ? report.summaryLine + "\n" : TextOutput.render(report)
        case .json: rendered = try JSONOutput.render(report)
        case .junit: rendered = JUnitOutput.render(report)
        }
        if let output {
            try Data(rendered.utf8).write(to: URL(fileURLWithPath: output))
            FileHandle.standardOutput.write(Data((report.summaryLine + "\n").utf8))
        } else {
            FileHandle.standardOutput.write(Data(rendered.utf8))
        }
        if let path = self.report {
            try Data(HTMLReport.render(report).utf8).write(to: URL(fileURLWithPath: path))
        }
        if !report.passed { throw ExitCode(CLIExit.invalidInput) }
    }
}

/// The live `[3/34] challenge.endpoints` line on a terminal's stderr; nothing when stderr is not a terminal.
final class ProgressLine: Sendable {
    let enabled = isatty(STDERR_FILENO) == 1

    func show(_ text: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    /// A line that stays, terminal or not ("signing in as Browser…").
    func line(_ text: String) {
        clear()
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// `--manual`: a person signs in with a browser and pastes where it ended.
enum ManualSignIn {
    static func ask(_ authorizeURL: String) async -> String? {
        CLIExit.printError("""

            Open this URL in a browser, sign in, and paste the URL the browser was sent to at the end \
            (it will not load; copy it from the address bar):
              \(authorizeURL)
            Final URL:
            """)
        return readLine()?.trimmingCharacters(in: .whitespaces)
    }
}
