import Foundation
import Testing

/// Runs samples/partner-app end to end: `signin-bridge` builds Office's To URL, the example answers it, and
/// `signin-bridge` decodes the Back URL.
@Suite struct PartnerAppExampleTests {
    static func runExample(_ arguments: String...) throws -> (status: Int32, stdout: String) {
        try CLIRunner.runSibling("PartnerAppExample", arguments, environment: ["OFFICE_CLIENT_ID": "abcdefg"])
    }

    @Test func answersOfficeWithACodeOrTheErrorFormAndKeepsTheAction() throws {
        let action = "76d173ad-a43f-4e3c-a5e7-0e7276b4c624&x=+"
        let to = try CLIRunner.run(
            "url", "encode", "to", "--scheme", "contoso", "--client-id", "abcdefg", "--app", "excel", "--action", action,
            "--scope", "wopi", "--platform", "iOS")
        #expect(to.status == 0)
        let toURL = to.stdout.trimmingCharacters(in: .newlines)

        let answer = try Self.runExample("ios", toURL)
        #expect(answer.status == 0)
        let back = try URLCommandTests.decode(answer.stdout.trimmingCharacters(in: .newlines))
        #expect(back["kind"] as? String == "office_back_url")
        #expect(back["scheme"] as? String == "ms-excel-tp")
        #expect(back["action"] as? String == action)
        #expect((back["code"] as? String)?.count == 43)

        let cancelled = try Self.runExample("ios", toURL, "--cancel")
        let error = try URLCommandTests.decode(cancelled.stdout.trimmingCharacters(in: .newlines))
        #expect(error["error"] as? String == "access_denied")
        #expect(error["action"] as? String == action)
        #expect(error["code"] == nil)

        let wrongClient = try Self.runExample("ios", toURL.replacingOccurrences(of: "abcdefg", with: "intruder"))
        #expect(try URLCommandTests.decode(wrongClient.stdout.trimmingCharacters(in: .newlines))["error"] as? String == "unauthorized_client")

        #expect(try Self.runExample("ios", "contoso:client_id=abcdefg&response_type=code&app=word").status == 1)

        let android = try Self.runExample(
            "android", "AuthorizeUrlQueryParams=client_id=abcdefg&response_type=code&app=word", "UserId=demo-user@contoso.example")
        #expect(android.status == 0)
        #expect(android.stdout.hasPrefix("resultCode=-1\nResponseUrlQueryParams=code="))
        #expect(android.stdout.hasSuffix("\nUserId=demo-user@contoso.example\n"))
    }

    /// The host's own app at the authorization challenge endpoint (draft-ietf-oauth-first-party-apps-04): the first
    /// request with PKCE, each answer turned into the next form, the browser URL or the token request.
    @Test func signsInNativelyThroughTheAuthorizationChallengeEndpoint() throws {
        let start = try Self.runExample("first-party", "start", "demo@example.com")
        #expect(start.status == 0)
        let lines = start.stdout.split(separator: "\n").map(String.init)
        let verifier = try #require(lines.first?.split(separator: "=", maxSplits: 1).last.map(String.init))
        #expect(lines.count == 2 && lines[1].hasPrefix("response_type=code&client_id=partner-app&scope=openid&code_challenge="))
        #expect(lines[1].hasSuffix("&code_challenge_method=S256&username=demo%40example.com"))

        let issuer = "http://127.0.0.1:8080"
        let password = try Self.runExample(
            "first-party", "next", issuer, #"{"error":"insufficient_authorization","auth_session":"s1","password_required":true}"#,
            verifier, "pw")
        #expect(password.stdout == "challenge client_id=partner-app&auth_session=s1&password=pw\n")

        let code = try Self.runExample("first-party", "next", issuer, #"{"authorization_code":"c0de"}"#, verifier)
        #expect(code.stdout.hasPrefix("token grant_type=authorization_code&code=c0de"))
        #expect(code.stdout.contains("code_verifier=\(verifier)"))
        #expect(!code.stdout.contains("redirect_uri"))

        let web = try Self.runExample(
            "first-party", "next", issuer, #"{"error":"redirect_to_web","request_uri":"urn:ietf:params:oauth:request_uri:x","expires_in":60}"#,
            verifier)
        #expect(web.stdout == "browser \(issuer)/oauth2/authorize?client_id=partner-app&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3Ax\n")

        let refused = try Self.runExample("first-party", "next", issuer, #"{"error":"invalid_session"}"#, verifier)
        #expect(refused.status == 1)
        #expect(try Self.runExample("first-party", "next", issuer, "{not json", verifier).status == 2)
    }
}
