import Foundation
import Testing

@Suite struct URLCommandTests {
    // Seed 004, verbatim.
    static let docsBackURL = "ms-word-tp:code=abcdefg&tk=https%3A%2F%2Fcontoso.com%2Fapi%2Ftoken%2F%3Fextra%3Dstuff&sc=xyz&action=76d173ad-a43f-4e3c-a5e7-0e7276b4c624"
    static let docsToURL = "Contoso:client_id=abcdefg&response_type=code&scope=wopi&rs=enUS&build=16.1.1234&platform=iOS&app=word&action=76d173ad-a43f-4e3c-a5e7-0e7276b4c624"
    static let docsRedirect = "https://localhost?state=&code=abcdefg&tk=https%3A%2F%2Fcontoso.com%2Fapi%2Ftoken%2F%3Fextra%3Dstuff"
    // Seed 000, verbatim.
    static let vippsErrorCallback = "merchantapp://app-callback?state=218gz18yveu1ybajwh2g1h3g?error=unknown_error"
    static let vippsCallback = "merchant-app://callback/?state=RFiQdrl_lvJUpVmTRSKmsZRGLM0G1N1qh0WebZ1gDNk&resume_uri=https%3A%2F%2Fapi.vipps.no%2Fvipps-login-idp%2Findex.html%3FtabId%3D7607f7f0-7ae2-49b7-9cb5-102143dac4ea"
    static let vippsAuthorize = ".../oauth2/auth?app_callback_uri=https://example.com/app-callback&requested_flow=app_to_app&scope=<scopes>&response_type=code&redirect_uri=merchantapp://callback&code_challenge_method=S256&state=<state>&nonce=<nonce>&client_id=<clientid>&code_challenge=<challenge>"

    static func decode(_ url: String) throws -> [String: Any] {
        let output = try CLIRunner.run("url", "decode", url)
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stderr.isEmpty)
        return try ChallengeCommandTests.json(output.stdout)
    }

    @Test func docsBackURLDecodesWithActionAndTk() throws {
        let json = try Self.decode(Self.docsBackURL)
        #expect(json["kind"] as? String == "office_back_url")
        #expect(json["action"] as? String == "76d173ad-a43f-4e3c-a5e7-0e7276b4c624")
        #expect(json["tk"] as? String == "https://contoso.com/api/token/?extra=stuff")
        #expect(json["code"] as? String == "abcdefg")
        #expect(json["sc"] as? String == "xyz")
        #expect(json["app"] as? String == "word")
    }

    @Test func everyKindIsRecognised() throws {
        let to = try Self.decode(Self.docsToURL)
        #expect(to["kind"] as? String == "office_to_url")
        #expect(to["scheme"] as? String == "Contoso")
        #expect(to["back_scheme"] as? String == "ms-word-tp")
        let redirect = try Self.decode(Self.docsRedirect)
        #expect(redirect["kind"] as? String == "authorization_response")
        #expect(redirect["tk"] as? String == "https://contoso.com/api/token/?extra=stuff")
        let failed = try Self.decode(Self.vippsErrorCallback)
        #expect(failed["kind"] as? String == "app_callback")
        #expect(failed["error"] as? String == "unknown_error")
        #expect(failed["state"] as? String == "218gz18yveu1ybajwh2g1h3g")
        let approved = try Self.decode(Self.vippsCallback)
        #expect(approved["resume_uri"] as? String == "https://api.vipps.no/vipps-login-idp/index.html?tabId=7607f7f0-7ae2-49b7-9cb5-102143dac4ea")
        let authorize = try Self.decode(Self.vippsAuthorize)
        #expect(authorize["kind"] as? String == "authorization_request")
        #expect(authorize["requested_flow"] as? String == "app_to_app")
        #expect(authorize["app_callback_uri"] as? String == "https://example.com/app-callback")
    }

    @Test func encodeBackThenDecodeRoundTrips() throws {
        let encoded = try CLIRunner.run(
            "url", "encode", "back", "--app", "word", "--code", "abcdefg", "--tk", "https://contoso.com/api/token/?extra=stuff",
            "--sc", "xyz", "--action", "76d173ad-a43f-4e3c-a5e7-0e7276b4c624")
        #expect(encoded.status == 0)
        #expect(encoded.stdout == Self.docsBackURL + "\n")
        let failure = try CLIRunner.run(
            "url", "encode", "back", "--app", "excel", "--error", "access_denied", "--error-description", "user cancelled",
            "--action", "a&b=c+d")
        #expect(failure.stdout == "ms-excel-tp:error=access_denied&error_description=user%20cancelled&action=a%26b%3Dc%2Bd\n")
        let json = try Self.decode(failure.stdout.trimmingCharacters(in: .newlines))
        #expect(json["error"] as? String == "access_denied")
        #expect(json["error_description"] as? String == "user cancelled")
        #expect(json["action"] as? String == "a&b=c+d")
    }

    @Test func encodeToThenDecodeRoundTrips() throws {
        let encoded = try CLIRunner.run(
            "url", "encode", "to", "--scheme", "Contoso", "--client-id", "abcdefg", "--app", "word",
            "--action", "76d173ad-a43f-4e3c-a5e7-0e7276b4c624", "--scope", "wopi", "--rs", "enUS", "--build", "16.1.1234",
            "--platform", "iOS")
        #expect(encoded.status == 0)
        #expect(encoded.stdout == Self.docsToURL + "\n")
        let json = try Self.decode(encoded.stdout.trimmingCharacters(in: .newlines))
        #expect(json["client_id"] as? String == "abcdefg")
        #expect(json["build"] as? String == "16.1.1234")
    }

    @Test(arguments: [
        ("ms-word-tp:code=abc", "Office Back URL: missing parameter action"),
        ("ms-word-tp:code=a%zz&action=1", "Office Back URL: parameter 'code': '%' not followed by two hex digits at byte 17"),
        ("hello", "not a sign-in URL: expected an Office To or Back URL, an app callback (state, resume_uri), a redirect (code or error) or an authorize request (client_id)"),
        ("https://localhost?code=a&code=b", "authorization response: parameter 'code' appears more than once"),
        ("merchantapp://cb?resume_uri=x", "app callback: required parameter 'state' is missing"),
        ("https://idp.example/authorize?client_id=a", "authorization request: required parameter 'response_type' is missing"),
    ])
    func badInputExitsOneWithOneLine(url: String, message: String) throws {
        let output = try CLIRunner.run("url", "decode", url)
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr == message + "\n")
    }

    @Test func invalidEncodeValuesExitOneAndUsageErrorsTwo() throws {
        #expect(try CLIRunner.run("url", "encode", "back", "--app", "word", "--code", "", "--action", "1").status == 1)
        #expect(try CLIRunner.run("url", "encode", "to", "--scheme", "con toso", "--client-id", "a", "--app", "word", "--action", "1").status == 1)
        #expect(try CLIRunner.run("url", "decode").status == 2)
        #expect(try CLIRunner.run("url", "encode", "back", "--app", "nope", "--code", "c", "--action", "1").status == 2)
        #expect(try CLIRunner.run("url", "encode", "back", "--app", "word", "--code", "c", "--error", "e", "--action", "1").status == 2)
        #expect(try CLIRunner.run("url", "encode", "back", "--app", "word", "--error", "e", "--tk", "t", "--action", "1").status == 2)
        #expect(try CLIRunner.run("url", "encode", "back", "--app", "word", "--action", "1").status == 2)
    }

    @Test func helpShowsExamples() throws {
        for command in [["url"], ["url", "decode"], ["url", "encode"], ["url", "encode", "back"], ["url", "encode", "to"]] {
            let output = try CLIRunner.run(command + ["--help"])
            #expect(output.status == 0)
            #expect(output.stdout.contains("Example"))
            #expect(output.stdout.contains("signin-bridge url"))
        }
    }
}
