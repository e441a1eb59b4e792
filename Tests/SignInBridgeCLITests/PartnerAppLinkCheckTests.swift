import Foundation
import Testing

/// `config check` lints the association files `serve` publishes for `partnerApps` against the host's https
/// redirect URIs, as `signin-bridge lint` would read the files a host serves.
@Suite("CLI: config check of the partner apps' association files")
struct PartnerAppLinkCheckTests {
    static func config(clientRedirect: String, paths: String = "[/oauth2/app-callback]") throws -> String {
        try ServerCommandsTests.temporaryConfig {
            $0.replacingOccurrences(of: "# issuer: https://files.example.com", with: "issuer: https://files.example.com")
                .replacingOccurrences(
                    of: "redirectUris: [com.example.partner:/oauth2redirect]",
                    with: "redirectUris: [com.example.partner:/oauth2redirect, \(clientRedirect)]")
                .replacingOccurrences(of: "redirectPaths: [/oauth2/app-callback]", with: "redirectPaths: \(paths)")
        }
    }

    @Test func aPublicClientsHttpsRedirectOnThisHostMustBeCovered() throws {
        let uncovered = try CLIRunner.run("config", "check", Self.config(clientRedirect: "https://files.example.com/oauth2/other"))
        #expect(uncovered.status == 2)
        #expect(uncovered.stderr.contains("/.well-known/apple-app-site-association"), "\(uncovered.stderr)")
        #expect(uncovered.stderr.contains("[aasa-redirect-unmatched]"), "\(uncovered.stderr)")
        #expect(uncovered.stderr.contains("(clients[1].redirectUris[1])"), "\(uncovered.stderr)")

        let covered = try CLIRunner.run(
            "config", "check",
            Self.config(clientRedirect: "https://files.example.com/oauth2/other", paths: "[/oauth2/app-callback, /oauth2/other]"))
        #expect(covered.status == 0, "\(covered.stderr)")
        // Another host's redirect is that host's files' business.
        let elsewhere = try CLIRunner.run("config", "check", Self.config(clientRedirect: "https://app.example.net/cb"))
        #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
    }
}
