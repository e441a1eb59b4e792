import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

@testable import BridgeServer

/// Simple Login (`requested_flow=app_to_app_v2`, developer.vippsmobilepay.com/docs/APIs/login-api/api-guide/
/// mobile-app-flows/simple-login/) with this server as the provider, over real sockets: the merchant's browser tab
/// parks the request, the host's app approves (that is the consent) and gets the merchant's https `redirect_uri` with
/// the code; PKCE binds the code to the merchant app. Without the app, the deep link opened in the same browser
/// leads to the sign-in page, consent, and the same redirect.
@Suite("Simple Login as provider over the wire")
struct SimpleLoginFlowTests {
    static let redirect = "https://merchant.example.com/app/callback"
    static let httpRedirect = "http://127.0.0.1/app/callback"

    /// The OpenID fixture plus a merchant enabled for Simple Login (an https link, and a loopback http one to refuse).
    static func make() async throws -> TestBridge {
        let yaml = OpenIDFixture.yaml + """

              - id: simple-merchant
                name: Simple Merchant
                public: true
                redirectUris: [\(redirect), \(httpRedirect)]
                appToAppApprovers: [host-app]
                appToAppV2: true
                grants: [authorization_code]
                scopes: [openid, profile, email]
              - id: simple-backend
                secretHash: sha256:4da1b9bad2de817874c216b6ea71cd0999e0ef648c142bce286d5323ed384c6c
                redirectUris: [\(redirect)]
                appToAppApprovers: [host-app]
                appToAppV2: true
                grants: [authorization_code]
                scopes: [openid, profile]
            """
        let bridge = try await TestBridge.make(yaml: yaml)
        try await bridge.store.saveUser(
            UserRecord(
                id: "alice", signInName: "alice@contoso.com", friendlyName: "Alice",
                passwordHash: try await bridge.app.hashPassword(AuthorizeFixture.password)))
        return bridge
    }

    static func query(
        client: String = "simple-merchant", redirect: String = redirect, pkce: Bool = true, method: String = "S256",
        extra: [(String, String)] = []
    ) -> String {
        var form = FormParameters()
        form.append("client_id", client)
        form.append("redirect_uri", redirect)
        form.append("response_type", "code")
        form.append("scope", "openid profile")
        form.append("state", "merchant-state")
        form.append("nonce", "merchant-nonce")
        if pkce {
            form.append("code_challenge", AuthorizeFixture.challenge)
            form.append("code_challenge_method", method)
        }
        form.append("requested_flow", "app_to_app_v2")
        for (name, value) in extra { form.append(name, value) }
        return form.encoded
    }

    static func answer(_ response: TestResponse) throws -> AuthorizationResponse {
        #expect(response.status == .ok)
        let answer = try AppToAppRedirectAnswer.decode(json: String(buffer: response.body))
        #expect(answer.redirectURL.hasPrefix(redirect + "?"))
        return try answer.response()
    }

    static func redeem(_ client: some TestClientProtocol, code: String, verifier: String? = AuthorizeFixture.verifier)
        async throws -> OAuthExchange
    {
        guard let verifier else {
            return try await client.postForm(
                "/oauth2/token",
                ["grant_type": "authorization_code", "code": code, "redirect_uri": redirect, "client_id": "simple-merchant"])
        }
        return try await client.postForm(
            "/oauth2/token",
            [
                "grant_type": "authorization_code", "code": code, "redirect_uri": redirect, "client_id": "simple-merchant",
                "code_verifier": verifier,
            ])
    }

    @Test func approvedInTheHostAppTheCodeGoesStraightToTheRedirectURIBoundToPKCE() async throws {
        let bridge = try await Self.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let token = try await AppToAppFlowTests.hostAppToken(client)
            let merchant = TestBrowser(client)
            let parked = try await merchant.get("/oauth2/authorize?" + Self.query())
            #expect(parked.status == .ok)
            #expect(parked.body.contains("Continue in the app"))
            #expect(parked.body.contains("it takes you straight back to Simple Merchant"))
            let reference = try AppToAppFlowTests.reference(in: parked)
            let details = try await client.executeRequest(
                uri: "/oauth2/app-to-app/request?reference=\(reference)", method: .get,
                headers: [.authorization: "Bearer \(token)"], body: nil)
            #expect(try AppToAppRequestDetails.decode(json: String(buffer: details.body)).clientName == "Simple Merchant")
            let response = try Self.answer(try await AppToAppFlowTests.decide(client, token: token, reference: reference, .approve))
            #expect(response.state == "merchant-state")
            #expect(response.issuer == "https://contoso.com", "RFC 9207 section 2")
            let code = try #require(response.code)
            let exchange = try await Self.redeem(client, code: code)
            #expect(exchange.status == .ok)
            let claims = try await bridge.app.keys.collection.verify(
                try #require(exchange.json["id_token"] as? String), as: IDTokenClaims.self)
            #expect(claims.sub == "alice" && claims.nonce == "merchant-nonce" && claims.aud == "simple-merchant")
            // Approving in the app was the consent: remembered, so the same user is not asked again on the web.
            #expect(try await bridge.store.consent(userID: "alice", clientID: "simple-merchant")?.scope == "openid profile")
            // The parked request ended with the code: the browser tab has nothing left to continue.
            let replay = try await AppToAppFlowTests.decide(client, token: token, reference: reference, .approve)
            #expect(replay.status == .badRequest)
            #expect(String(buffer: replay.body).contains("the reference was already used"))
            // Nothing but PKCE ties the code to the merchant app (RFC 7636 §4.6): without the verifier it is refused.
            let second = try AppToAppFlowTests.reference(in: try await merchant.get("/oauth2/authorize?" + Self.query()))
            let unbound = try Self.answer(try await AppToAppFlowTests.decide(client, token: token, reference: second, .approve))
            #expect(try await Self.redeem(client, code: try #require(unbound.code), verifier: nil).error == "invalid_grant")
        }
    }

    @Test func aDenialSendsAccessDeniedToTheRedirectURIAndIssuesNothing() async throws {
        let bridge = try await Self.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let token = try await AppToAppFlowTests.hostAppToken(client)
            let reference = try AppToAppFlowTests.reference(in: try await TestBrowser(client).get("/oauth2/authorize?" + Self.query()))
            let response = try Self.answer(try await AppToAppFlowTests.decide(client, token: token, reference: reference, .deny))
            #expect(response.error?.code == .accessDenied)
            #expect(response.state == "merchant-state" && response.issuer == "https://contoso.com" && response.code == nil)
            #expect(try await AppToAppFlowTests.decide(client, token: token, reference: reference, .approve).status == .badRequest)
            #expect(try await bridge.store.consent(userID: "alice", clientID: "simple-merchant") == nil)
        }
    }

    @Test func aForeignUnknownOrExpiredReferenceIsRefusedAndUsesNothingUp() async throws {
        let bridge = try await Self.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let token = try await AppToAppFlowTests.hostAppToken(client)
            let reference = try AppToAppFlowTests.reference(in: try await TestBrowser(client).get("/oauth2/authorize?" + Self.query()))
            let otherApp = try await AppToAppFlowTests.hostAppToken(client, clientID: "other-app", redirect: "com.contoso.other:/done")
            let foreign = try await AppToAppFlowTests.decide(client, token: otherApp, reference: reference, .approve)
            #expect(foreign.status == .forbidden)
            #expect(foreign.headers[.wwwAuthenticate]?.contains(#"error="insufficient_scope""#) == true)
            let unknown = try await AppToAppFlowTests.decide(client, token: token, reference: "not-a-reference", .approve)
            #expect(unknown.status == .badRequest)
            #expect(String(buffer: unknown.body).contains("invalid_request"))
            bridge.clock.advance(by: 121)
            let late = try await AppToAppFlowTests.decide(client, token: token, reference: reference, .approve)
            #expect(late.status == .badRequest)
            #expect(String(buffer: late.body).contains("the reference has expired"))
            #expect(try await bridge.store.consent(userID: "alice", clientID: "simple-merchant") == nil)
        }
    }

    /// Simple Login page, "PKCE Required" and the https universal-link redirect; RFC 6749 §4.1.2.1: the registered
    /// redirect URI gets the error with the state. A public client's missing or plain PKCE is refused by the general
    /// rule (RFC 9700 §2.1.1) first; a confidential client is refused by Simple Login's own.
    @Test(arguments: [
        (query(pkce: false), redirect, "code_challenge is required (PKCE, RFC 7636)"),
        (query(method: "plain"), redirect, "code_challenge_method is not supported; use S256"),
        (query(client: "simple-backend", pkce: false), redirect, "required parameter 'code_challenge' is missing"),
        (query(redirect: httpRedirect), httpRedirect, "parameter 'redirect_uri' is invalid: must be an https universal link / App Link"),
        (query(extra: [("app_callback_uri", "com.example.merchant:/app-callback")]), redirect,
         "parameter 'app_callback_uri' is invalid: is not used with requested_flow=app_to_app_v2"),
    ])
    func requestsThatBreakSimpleLoginsRulesGoBackWithInvalidRequest(query: String, to target: String, description: String) async throws {
        let bridge = try await Self.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let page = try await TestBrowser(client).get("/oauth2/authorize?" + query)
            #expect(page.status == .found)
            #expect(try #require(page.location).hasPrefix(target + "?"))
            let parameters = try page.redirectParameters()
            #expect(parameters["error"] == "invalid_request")
            #expect(parameters["error_description"] == description)
            #expect(parameters["state"] == "merchant-state" && parameters["code"] == nil)
        }
    }

    @Test func anUnregisteredRedirectURIIsAPageNeverARedirect() async throws {
        let bridge = try await Self.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let page = try await TestBrowser(client).get("/oauth2/authorize?" + Self.query(redirect: Self.redirect + "/"))
            #expect(page.status == .badRequest)
            #expect(page.location == nil)
        }
    }

    @Test func withoutTheAppTheDeepLinkInTheSameBrowserSignsInOnTheWebAndRedirectsWithTheCode() async throws {
        let bridge = try await Self.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let merchant = TestBrowser(client)
            let reference = try AppToAppFlowTests.reference(in: try await merchant.get("/oauth2/authorize?" + Self.query()))
            let landing = try await merchant.get("/app-to-app?reference=\(reference)")
            #expect(landing.status == .found)
            let interaction = try #require(landing.location)
            #expect(interaction.hasPrefix("/oauth2/interaction/") && interaction.hasSuffix("?sign_in=here"))
            // In another browser the reference leads nowhere: the interaction is bound to the parking browser.
            let stranger = TestBrowser(client)
            _ = try await stranger.get("/oauth2/authorize?" + Self.query())
            #expect(try await stranger.get(interaction).status == .forbidden)
            let signInPage = try await merchant.get(interaction)
            #expect(signInPage.status == .ok)
            #expect(signInPage.body.contains("name=\"password\"") && !signInPage.body.contains("id=\"open-app\""))
            let afterSignIn = try await merchant.signIn(on: signInPage)
            let consent = try await merchant.get(try #require(afterSignIn.location))
            #expect(consent.body.contains("Simple Merchant wants to:"))
            let done = try await merchant.decide("allow", on: consent)
            #expect(try #require(done.location).hasPrefix(Self.redirect + "?"))
            let parameters = try done.redirectParameters()
            #expect(parameters["state"] == "merchant-state" && parameters["iss"] == "https://contoso.com")
            #expect(try await Self.redeem(client, code: try #require(parameters["code"])).status == .ok)
        }
    }

    @Test func anAppToAppV1ReferenceInABrowserStillSaysToUseTheApp() async throws {
        let bridge = try await Self.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let merchant = TestBrowser(client)
            let reference = try AppToAppFlowTests.reference(
                in: try await merchant.get("/oauth2/authorize?" + AppToAppFlowTests.merchantQuery()))
            let page = try await merchant.get("/app-to-app?reference=\(reference)")
            #expect(page.status == .ok)
            #expect(page.body.contains("Open this link on a phone or tablet with the app installed"))
        }
    }
}
