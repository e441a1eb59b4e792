import Foundation
import SignInProtocol
import Testing

/// OpenID Connect Native SSO for Mobile Apps 1.0 draft 07 §4.2: the exchange request as an app sends it, and the
/// device secret of a token response (§3.4.2).
@Suite struct NativeSSOExchangeTests {
    @Test func section4_2_theExchangeCarriesTheIDTokenAsSubjectAndTheDeviceSecretAsActor() throws {
        let exchange = TokenRequest.TokenExchange.nativeSSO(
            idToken: "eyJ.a.b", deviceSecret: "secret-1", audience: "https://files.example.com")
        #expect(exchange.isNativeSSO)
        let request = TokenRequest(
            grant: .tokenExchange(exchange), scope: "openid", client: ClientAuthentication(clientID: "sso-app-b"))
        let form = request.form
        #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:token-exchange")
        #expect(form["subject_token"] == "eyJ.a.b")
        #expect(form["subject_token_type"] == "urn:ietf:params:oauth:token-type:id_token")
        #expect(form["actor_token"] == "secret-1")
        #expect(form["actor_token_type"] == "urn:openid:params:token-type:device-secret")
        #expect(form["audience"] == "https://files.example.com")
        #expect(form["client_id"] == "sso-app-b")
        // A server reads back the same exchange.
        #expect(try TokenRequest.decode(form: request.formBody).grant == .tokenExchange(exchange))
        let plain = TokenRequest.TokenExchange(subjectToken: "at", subjectTokenType: "urn:ietf:params:oauth:token-type:access_token")
        #expect(!plain.isNativeSSO)
        #expect(TokenRequest.TokenExchange.nativeSSO(idToken: "t", deviceSecret: "s").audiences.isEmpty)
    }

    @Test func section3_4_2_theDeviceSecretOfATokenResponse() throws {
        let response = try TokenResponse.decode(
            json: #"{"access_token":"a","token_type":"Bearer","id_token":"eyJ.a.b","device_secret":"secret-1"}"#)
        #expect(response.deviceSecret == "secret-1")
        let without = try TokenResponse.decode(json: #"{"access_token":"a","token_type":"Bearer"}"#)
        #expect(without.deviceSecret == nil)
    }
}
