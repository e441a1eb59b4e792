import PropertyBased
import Testing
import SignInProtocol

@Suite struct AppToAppAuthorizationTests {
    @Test func seedExampleAuthorizeURL() throws {
        // Seed 000, "Example authorize request URL", verbatim.
        let authorization = try AppToAppAuthorization.decode(url: AuthorizationRequestTests.vippsAuthorizeURL)
        #expect(authorization.appCallbackURI == "https://example.com/app-callback")
        #expect(authorization.redirectURI == "merchantapp://callback")
        #expect(authorization.request.codeChallengeMethod == "S256")
    }

    @Test func builderEmitsBothURIsAndTheFlow() throws {
        let verifier = try PKCE.Verifier("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        let authorization = try AppToAppAuthorization(
            clientID: "merchant", redirectURI: "https://example.com/redirect-uri",
            appCallbackURI: "merchantapp://app-callback", scope: "openid phoneNumber", state: "s1", nonce: "n1",
            pkce: verifier.challenge())
        let url = authorization.url(authorizationEndpoint: "https://api.vipps.no/access-management-1.0/access/oauth2/auth")
        #expect(url == "https://api.vipps.no/access-management-1.0/access/oauth2/auth?client_id=merchant&response_type=code&redirect_uri=https%3A%2F%2Fexample.com%2Fredirect-uri&scope=openid%20phoneNumber&state=s1&nonce=n1&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&requested_flow=app_to_app&app_callback_uri=merchantapp%3A%2F%2Fapp-callback")
        #expect(try AppToAppAuthorization.decode(url: url) == authorization)
    }

    @Test func bothURIsAndTheFlowAreRequired() {
        #expect(throws: OAuthDecodingError.missingParameter("app_callback_uri")) {
            try AppToAppAuthorization(clientID: "c", redirectURI: "https://r", appCallbackURI: "")
        }
        #expect(throws: OAuthDecodingError.missingParameter("redirect_uri")) {
            try AppToAppAuthorization(clientID: "c", redirectURI: "", appCallbackURI: "m://cb")
        }
        #expect(throws: OAuthDecodingError.missingParameter("client_id")) {
            try AppToAppAuthorization(clientID: "", redirectURI: "https://r", appCallbackURI: "m://cb")
        }
        #expect(throws: OAuthDecodingError.missingParameter("requested_flow")) {
            try AppToAppAuthorization(AuthorizationRequest(clientID: "c", redirectURI: "https://r", appCallbackURI: "m://cb"))
        }
        #expect(throws: OAuthDecodingError.invalidParameter("requested_flow", reason: "must be 'app_to_app'")) {
            try AppToAppAuthorization.decode(url: "https://idp/auth?client_id=c&response_type=code&redirect_uri=https://r&app_callback_uri=m://cb&requested_flow=web")
        }
    }

    @Test func roundTripsThroughTheAuthorizeURL() async {
        await propertyCheck(input: AuthorizationRequestTests.generator) { generated throws in
            var request = generated
            request.requestedFlow = AppToAppAuthorization.requestedFlow
            request.redirectURI = request.redirectURI ?? "https://example.com/redirect-uri"
            request.appCallbackURI = request.appCallbackURI ?? "merchantapp://app-callback"
            let authorization = try AppToAppAuthorization(request)
            let url = authorization.url(authorizationEndpoint: "https://login.example/oauth2/auth")
            #expect(try AppToAppAuthorization.decode(url: url) == authorization)
        }
    }
}
