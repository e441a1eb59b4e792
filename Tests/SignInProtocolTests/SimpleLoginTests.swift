import SignInProtocol
import Testing

/// Simple Login (`requested_flow=app_to_app_v2`, developer.vippsmobilepay.com …/mobile-app-flows/simple-login/).
@Suite("Simple Login values")
struct SimpleLoginTests {
    static let verifier = try! PKCE.Verifier("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")

    static func request(
        redirectURI: String? = "https://merchant.example.com/app/callback", state: String? = "s1",
        challenge: Bool = true, method: String? = "S256", appCallbackURI: String? = nil
    ) -> AuthorizationRequest {
        AuthorizationRequest(
            clientID: "merchant", redirectURI: redirectURI, scope: "openid", state: state,
            codeChallenge: challenge ? "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" : nil,
            codeChallengeMethod: method, requestedFlow: "app_to_app_v2", appCallbackURI: appCallbackURI)
    }

    @Test func theBuilderSendsTheFlowPKCEAndNoAppCallback() throws {
        let login = try SimpleLoginAuthorization(
            clientID: "merchant", redirectURI: "https://merchant.example.com/app/callback",
            pkce: Self.verifier.challenge(), state: "s1", scope: "openid", nonce: "n1")
        let url = login.url(authorizationEndpoint: "https://files.example.com/oauth2/authorize")
        #expect(url == "https://files.example.com/oauth2/authorize?client_id=merchant&response_type=code&redirect_uri=https%3A%2F%2Fmerchant.example.com%2Fapp%2Fcallback&scope=openid&state=s1&nonce=n1&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&requested_flow=app_to_app_v2")
        #expect(try SimpleLoginAuthorization.decode(url: url) == login)
        #expect(login.redirectURI == "https://merchant.example.com/app/callback" && login.state == "s1")
    }

    // Simple Login page, "PKCE Required"; RFC 7636 §4.3: without a method the challenge is plain.
    @Test func pkceWithS256IsRequired() {
        #expect(throws: OAuthDecodingError.missingParameter("code_challenge")) {
            try SimpleLoginAuthorization(Self.request(challenge: false))
        }
        #expect(throws: OAuthDecodingError.invalidParameter("code_challenge_method", reason: "must be S256")) {
            try SimpleLoginAuthorization(Self.request(method: nil))
        }
        #expect(throws: OAuthDecodingError.invalidParameter("code_challenge_method", reason: "must be S256")) {
            try SimpleLoginAuthorization(Self.request(method: "plain"))
        }
    }

    @Test(arguments: ["http://merchant.example.com/app/callback", "merchantapp://callback", "com.example.merchant:/cb"])
    func theRedirectURIMustBeAnHTTPSLink(_ redirectURI: String) {
        #expect(throws: OAuthDecodingError.invalidParameter("redirect_uri", reason: "must be an https universal link / App Link")) {
            try SimpleLoginAuthorization(Self.request(redirectURI: redirectURI))
        }
    }

    @Test func stateAndRedirectURIAreRequiredAndAppCallbackIsRefused() {
        #expect(throws: OAuthDecodingError.missingParameter("redirect_uri")) {
            try SimpleLoginAuthorization(Self.request(redirectURI: nil))
        }
        #expect(throws: OAuthDecodingError.missingParameter("state")) { try SimpleLoginAuthorization(Self.request(state: nil)) }
        #expect(throws: OAuthDecodingError.invalidParameter("app_callback_uri", reason: "is not used with requested_flow=app_to_app_v2")) {
            try SimpleLoginAuthorization(Self.request(appCallbackURI: "merchantapp://cb"))
        }
        #expect(throws: OAuthDecodingError.invalidParameter("requested_flow", reason: "must be 'app_to_app_v2'")) {
            try SimpleLoginAuthorization.decode(url: "https://idp/auth?client_id=c&response_type=code&redirect_uri=https://r&state=s&requested_flow=app_to_app")
        }
    }

    @Test func theRedirectAnswerIsJSONAndDecodesAsTheAuthorizationResponse() throws {
        let response = AuthorizationResponse.success(code: "c1", state: "s1").issued(by: "https://files.example.com")
        let answer = AppToAppRedirectAnswer(response, redirectURI: "https://merchant.example.com/app/callback")
        #expect(answer.json == #"{"redirect_url":"https://merchant.example.com/app/callback?state=s1&code=c1&iss=https%3A%2F%2Ffiles.example.com"}"#)
        let decoded = try AppToAppRedirectAnswer.decode(json: answer.json)
        #expect(decoded == answer)
        #expect(try decoded.response().code == "c1")
        #expect(try decoded.response().issuer == "https://files.example.com")
        let denied = AppToAppRedirectAnswer(
            .failure(OAuthError(.accessDenied, description: "no"), state: "s1"), redirectURI: "https://m.example/cb")
        #expect(try denied.response().error?.code == .accessDenied)
        #expect(try denied.response().state == "s1")
    }
}
