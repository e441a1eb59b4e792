import Crypto
import Foundation
import SignInProtocol
import Testing

/// Runs samples/merchant-app step by step and reads each output with SignInProtocol, as the other app would.
@Suite struct MerchantAppExampleTests {
    static func runExample(_ arguments: String...) throws -> (status: Int32, stdout: String) {
        try CLIRunner.runSibling("MerchantAppExample", arguments)
    }

    @Test func theAuthorizeURLAsksForAppToAppWithBothURIsAndThePrintedVerifierAnswersItsChallenge() throws {
        let output = try Self.runExample("authorize", "https://files.example.com")
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        let request = try AppToAppAuthorization.decode(url: lines[0])
        #expect(lines[0].hasPrefix("https://files.example.com/oauth2/authorize?"))
        #expect(request.request.clientID == "merchant-app")
        #expect(request.redirectURI == "com.example.merchant:/oauth2redirect")
        #expect(request.appCallbackURI == "com.example.merchant:/app-callback")
        #expect(request.request.scope == "openid profile email")
        let secrets = try FormParameters.decode(lines[1].replacingOccurrences(of: " ", with: "&"))
        #expect(secrets["state"] == request.request.state)
        #expect(secrets["nonce"] == request.request.nonce)
        let verifier = try PKCE.Verifier(try #require(secrets["code_verifier"]))
        #expect(verifier.challenge().value == request.request.codeChallenge)
    }

    @Test func theHostAppTurnsTheDeepLinkIntoAnApprovalOrADenial() throws {
        let link = AppToAppDeepLink(base: "https://files.example.com/app-to-app", reference: "ref-1").url
        let approve = try Self.runExample("approve", link)
        #expect(try AppToAppApproval.decode(approve.stdout.trimmingCharacters(in: .newlines)) == AppToAppApproval(reference: "ref-1", decision: .approve))
        let deny = try Self.runExample("approve", link, "deny")
        #expect(try AppToAppApproval.decode(deny.stdout.trimmingCharacters(in: .newlines)).decision == .deny)
    }

    @Test func theMerchantOpensResumeURIOnlyForItsOwnStateAndRedeemsWithItsVerifier() throws {
        let callback = AppCallback(
            callbackURI: "com.example.merchant:/app-callback", state: "s1",
            outcome: .approved(resumeURI: "https://files.example.com/oauth2/app-to-app/resume?token=t")).url
        let resumed = try Self.runExample("callback", callback, "s1")
        #expect(resumed.stdout == "open in the same browser tab: https://files.example.com/oauth2/app-to-app/resume?token=t\n")
        #expect(try Self.runExample("callback", callback, "s2").status == 1)
        // The Vipps pages' error form, with the second '?'.
        #expect(try Self.runExample("callback", "com.example.merchant:/app-callback?state=s1?error=unknown_error", "s1").stdout
            == "sign-in failed: unknown_error\n")
        let redirect = try Self.runExample(
            "redirect", "com.example.merchant:/oauth2redirect?state=s1&code=c1&scope=openid", "s1", "v-1")
        let form = try FormParameters.decode(redirect.stdout.trimmingCharacters(in: .newlines))
        #expect(form["code"] == "c1")
        #expect(form["code_verifier"] == "v-1")
        #expect(form["redirect_uri"] == "com.example.merchant:/oauth2redirect")
        #expect(try Self.runExample("redirect", "com.example.merchant:/oauth2redirect?state=s2&code=c1", "s1", "v").status == 1)
    }

    /// OpenID Connect Native SSO draft 07 §4.2: the second app's exchange, built from the first app's response.
    @Test func aSecondAppExchangesTheFirstAppsIDTokenAndDeviceSecret() throws {
        let first = #"{"access_token":"a","token_type":"Bearer","id_token":"eyJ.a.b","device_secret":"secret-1"}"#
        let output = try Self.runExample("native-sso", "https://files.example.com", first)
        #expect(output.status == 0)
        let request = try TokenRequest.decode(form: output.stdout.trimmingCharacters(in: .newlines))
        #expect(request.grant == .tokenExchange(.nativeSSO(idToken: "eyJ.a.b", deviceSecret: "secret-1", audience: "https://files.example.com")))
        #expect(request.client?.clientID == "sso-app-b")
        #expect(request.scope == "openid")
        let noSecret = #"{"access_token":"a","token_type":"Bearer","id_token":"eyJ.a.b"}"#
        #expect(try Self.runExample("native-sso", "https://files.example.com", noSecret).status == 1)
    }

    /// draft-ietf-oauth-attestation-based-client-auth-11 §5.1: the attested app's PoP, as the server will read it:
    /// signed by the instance key, for the issuer, with a fresh jti each time.
    @Test func theAttestedAppsPoPIsSignedByItsInstanceKeyForTheIssuer() throws {
        let key = P256.Signing.PrivateKey()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("instance-\(UUID().uuidString).pem")
        try key.pemRepresentation.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        func pop() throws -> ClientAttestationPoP {
            let output = try Self.runExample("attestation-pop", "https://files.example.com", file.path)
            #expect(output.status == 0)
            let prefix = "OAuth-Client-Attestation-PoP: "
            #expect(output.stdout.hasPrefix(prefix))
            return try ClientAttestationPoP(parsing: String(output.stdout.dropFirst(prefix.count)).trimmingCharacters(in: .newlines))
        }
        let first = try pop()
        #expect(first.claims.audience == ["https://files.example.com"])
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: first.signature)
        #expect(key.publicKey.isValidSignature(signature, for: first.signingInput))
        #expect(try pop().claims.id != first.claims.id)
        #expect(try Self.runExample("attestation-pop", "https://files.example.com", "/nonexistent.pem").status == 1)
    }
}
