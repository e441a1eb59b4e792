import Foundation
import SignInProtocol
import Testing

/// samples/merchant-app's Simple Login steps (`requested_flow=app_to_app_v2`), read back with SignInProtocol.
@Suite struct MerchantAppSimpleLoginTests {
    @Test func theSimpleLoginURLHasPKCEAndTheHTTPSLinkAndNoAppCallback() throws {
        let output = try MerchantAppExampleTests.runExample("authorize-v2", "https://files.example.com")
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        let request = try SimpleLoginAuthorization.decode(url: lines[0])
        #expect(request.request.clientID == "merchant-app")
        #expect(request.redirectURI == "https://merchant.example.com/app/callback")
        #expect(request.request.appCallbackURI == nil)
        let secrets = try FormParameters.decode(lines[1].replacingOccurrences(of: " ", with: "&"))
        #expect(secrets["state"] == request.state)
        #expect(try PKCE.Verifier(try #require(secrets["code_verifier"])).challenge().value == request.request.codeChallenge)
    }

    @Test func theHostAppOpensTheAnswersLinkAndTheMerchantRedeemsWithTheHTTPSRedirectURI() throws {
        let answer = AppToAppRedirectAnswer(
            AuthorizationResponse.success(code: "c1", state: "s1").issued(by: "https://files.example.com"),
            redirectURI: "https://merchant.example.com/app/callback")
        let opened = try MerchantAppExampleTests.runExample("open", answer.json)
        #expect(opened.stdout == "open: \(answer.redirectURL)\n")
        #expect(try MerchantAppExampleTests.runExample("open", "{}").status == 1)
        let redirect = try MerchantAppExampleTests.runExample("redirect", answer.redirectURL, "s1", "v-1")
        let form = try FormParameters.decode(redirect.stdout.trimmingCharacters(in: .newlines))
        #expect(form["code"] == "c1")
        #expect(form["redirect_uri"] == "https://merchant.example.com/app/callback")
    }
}
