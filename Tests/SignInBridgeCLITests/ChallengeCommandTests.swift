import Foundation
import Testing

@Suite struct ChallengeCommandTests {
    /// The docs' sample header value, verbatim (Microsoft's Office app-to-app docs, Microsoft's app-to-app docs).
    static let docsSample =
        #"Bearer authorization_uri="https://contoso.com/api/oauth2/authorize",tokenIssuance_uri="https://contoso.com/api/oauth2/token",providerId="tp_contoso", UrlSchemes="%7B%22iOS%22%20%3A%20%5B%22contoso%22%2C%22contoso-EMM%22%5D%2C%20%22Android%22%20%3A%20%5B%22contoso%22%2C%22contoso-EMM%22%5D%2C%20%22UWP%22%3A%20%5B%22contoso%22%2C%22contoso-EMM%22%5D%7D""#

    static func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func parsePrintsTheDocsSampleWithDecodedSchemesAndWarnings() throws {
        let output = try CLIRunner.run("challenge", "parse", Self.docsSample)
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty)
        let json = try Self.json(output.stdout)
        #expect(json["providerId"] as? String == "tp_contoso")
        #expect(json["authorization_uri"] as? String == "https://contoso.com/api/oauth2/authorize")
        let schemes = try #require(json["UrlSchemes"] as? [String: Any])
        #expect(schemes["iOS"] as? [String] == ["contoso", "contoso-EMM"])
        #expect((json["warnings"] as? [String])?.first?.contains("tp_contoso") == true)
    }

    @Test func parseTakesSeveralHeaderValues() throws {
        let output = try CLIRunner.run(
            "challenge", "parse", #"Basic realm="x""#,
            #"Bearer authorization_uri="https://h.example/a",tokenIssuance_uri="https://h.example/t""#)
        #expect(output.status == 0)
        #expect(try Self.json(output.stdout)["tokenIssuance_uri"] as? String == "https://h.example/t")
    }

    /// RFC 9110 §5.6.1: a recipient accepts the empty elements, the sender is told it must not write them.
    @Test func parseAcceptsEmptyListElementsAndWarnsTheSender() throws {
        let output = try CLIRunner.run(
            "challenge", "parse", #"Bearer , authorization_uri="https://h.example/a",tokenIssuance_uri="https://h.example/t","#)
        #expect(output.status == 0)
        #expect(output.stderr == """
            warning: empty list element (a leading, doubled or trailing ',') at byte 7: RFC 9110 §5.6.1 forbids senders to write one
            warning: empty list element (a leading, doubled or trailing ',') at byte 88: RFC 9110 §5.6.1 forbids senders to write one

            """)
        let warnings = try #require(try Self.json(output.stdout)["warnings"] as? [String])
        #expect(warnings.filter { $0.hasPrefix("sender: empty list element") }.count == 2)
    }

    @Test func aBadHeaderExitsOneWithOneLineOnStderr() throws {
        let output = try CLIRunner.run(
            "challenge", "parse", #"Bearer authorization_uri="http://contoso.com/a",tokenIssuance_uri="https://h.example/t""#)
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr == "WWW-Authenticate: authorization_uri at byte 7: scheme http is not https (http only on loopback)\n")
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try CLIRunner.run("challenge", "parse").status == 2)
        #expect(try CLIRunner.run("challenge", "build", "--authorization-uri", "https://h.example/a").status == 2)
        #expect(
            try CLIRunner.run(
                "challenge", "build", "--authorization-uri", "https://h.example/a", "--token-uri", "https://h.example/t",
                "--android", "1:2"
            ).status == 2)
    }

    @Test func helpShowsAnExample() throws {
        for command in [["challenge"], ["challenge", "parse"], ["challenge", "build"]] {
            let output = try CLIRunner.run(command + ["--help"])
            #expect(output.status == 0)
            #expect(output.stdout.contains("Example"))
            #expect(output.stdout.contains("signin-bridge challenge"))
        }
    }

    @Test func buildPrintsTheDocumentedFormAndParseReadsItBack() throws {
        let built = try CLIRunner.run(
            "challenge", "build", "--authorization-uri", "https://contoso.com/api/oauth2/authorize",
            "--token-uri", "https://contoso.com/api/oauth2/token", "--provider-id", "TPCONTOSO",
            "--ios", "contoso", "--ios", "contoso-EMM", "--android", "100:com.contoso.app:com.contoso.app.AuthActivity",
            "--android", "contoso", "--uwp", "contoso", "--resource-metadata", "https://contoso.com/.well-known/oauth-protected-resource")
        #expect(built.status == 0)
        #expect(built.stderr.isEmpty)
        let header = built.stdout.trimmingCharacters(in: .newlines)
        #expect(header.hasPrefix(#"Bearer authorization_uri="https://contoso.com/api/oauth2/authorize",tokenIssuance_uri="https://contoso.com/api/oauth2/token",providerId="TPCONTOSO",UrlSchemes="%7B%22iOS%22"#))
        #expect(header.hasSuffix(#",resource_metadata="https://contoso.com/.well-known/oauth-protected-resource""#))

        let parsed = try CLIRunner.run("challenge", "parse", header)
        #expect(parsed.status == 0)
        let json = try Self.json(parsed.stdout)
        #expect(json["providerId"] as? String == "TPCONTOSO")
        #expect(json["warnings"] as? [String] == [])
        let schemes = try #require(json["UrlSchemes"] as? [String: Any])
        #expect(schemes["iOS"] as? [String] == ["contoso", "contoso-EMM"])
        #expect(schemes["UWP"] as? [String] == ["contoso"])
        let android = try #require(schemes["Android"] as? [Any])
        #expect((android.first as? [String: Any])?["packageName"] as? String == "com.contoso.app")
        #expect((android.first as? [String: Any])?["minimumVersionCode"] as? Int == 100)
        #expect(android.last as? String == "contoso")
    }

    @Test func buildRefusesAnInsecureEndpointWithExitOne() throws {
        let output = try CLIRunner.run(
            "challenge", "build", "--authorization-uri", "http://contoso.com/a", "--token-uri", "https://h.example/t")
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("authorization_uri"))
    }
}
