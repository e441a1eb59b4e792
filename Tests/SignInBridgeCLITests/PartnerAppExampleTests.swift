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
}
