import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

@testable import BridgeServer

/// `requested_flow=app_to_app` with this server as the provider over real sockets: the merchant's browser is
/// parked, the host's app approves through the API, and the merchant opens `resume_uri` in the same browser.
@Suite("App to app as provider over the wire")
struct AppToAppFlowTests {
    static let merchantRedirect = "com.example.merchant:/oauth2redirect"
    static let merchantCallback = "com.example.merchant:/app-callback"

    static func merchantQuery(callback: String? = merchantCallback, redirect: String? = merchantRedirect) -> String {
        var form = FormParameters()
        form.append("client_id", "merchant-app")
        form.append("redirect_uri", redirect)
        form.append("response_type", "code")
        form.append("scope", "openid profile")
        form.append("state", "merchant-state")
        form.append("nonce", "merchant-nonce")
        form.append("code_challenge", AuthorizeFixture.challenge)
        form.append("code_challenge_method", "S256")
        form.append("requested_flow", "app_to_app")
        form.append("app_callback_uri", callback)
        return form.encoded
    }

    /// The host app's own access token: alice signed in to the first-party app with scope openid.
    static func hostAppToken(_ client: some TestClientProtocol, clientID: String = "host-app", redirect: String = "com.contoso.files:/done") async throws -> String {
        let browser = TestBrowser(client)
        let done = try await OpenIDFixture.signedInRedirect(
            browser, query: OpenIDFixture.query(client: clientID, redirect: redirect, scope: "openid"))
        let exchange = try await OpenIDFixture.redeem(client, code: try done.redirectCode(), clientID: clientID, redirect: redirect)
        return try #require(exchange.accessToken)
    }

    /// The reference in the parked page's deep link.
    static func reference(in page: TestBrowser.Page) throws -> String {
        let range = try #require(page.body.range(of: "id=\"open-app\" href=\""))
        let href = String(page.body[range.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
        let link = try AppToAppDeepLink.decode(url: href)
        #expect(link.base == "com.contoso.files:/app-to-app")
        return link.reference
    }

    static func decide(
        _ client: some TestClientProtocol, token: String, reference: String, _ decision: AppToAppApproval.Decision
    ) async throws -> TestResponse {
        try await client.executeRequest(
            uri: "/oauth2/app-to-app/decision", method: .post,
            headers: [.authorization: "Bearer \(token)", .contentType: "application/x-www-form-urlencoded"],
            body: ByteBuffer(string: AppToAppApproval(reference: reference, decision: decision).body))
    }

    static func callback(_ response: TestResponse) throws -> AppCallback {
        try AppToAppApprovalAnswer.decode(json: String(buffer: response.body)).callback()
    }

    /// The path and query of a `resume_uri` on this server.
    static func path(of uri: String) throws -> String {
        let url = try #require(URL(string: uri))
        return url.path + "?" + (url.query ?? "")
    }

    @Test func approvedInTheHostAppTheSameBrowserResumesToConsentAndTheCode() async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let token = try await Self.hostAppToken(client)
            let merchant = TestBrowser(client)
            let parked = try await merchant.get("/oauth2/authorize?" + Self.merchantQuery())
            #expect(parked.status == .ok)
            #expect(parked.body.contains("Continue in the app"))
            #expect(parked.body.contains("name=\"password\""))  // the plain sign-in fallback on the same page
            let reference = try Self.reference(in: parked)
            // The host app reads who asks and for what before the user decides; reading uses nothing up.
            for _ in 0..<2 {
                let details = try await client.executeRequest(
                    uri: "/oauth2/app-to-app/request?reference=\(reference)", method: .get,
                    headers: [.authorization: "Bearer \(token)"], body: nil)
                #expect(details.status == .ok)
                #expect(
                    try AppToAppRequestDetails.decode(json: String(buffer: details.body))
                        == AppToAppRequestDetails(
                            clientID: "merchant-app", clientName: "Example Merchant", scope: "openid profile", expiresIn: 120))
            }
            let answer = try await Self.decide(client, token: token, reference: reference, .approve)
            #expect(answer.status == .ok)
            let callback = try Self.callback(answer)
            #expect(callback.callbackURI == Self.merchantCallback)
            #expect(callback.state == "merchant-state")
            let resumeURI = try #require(callback.resumeURI)
            #expect(resumeURI.hasPrefix("https://contoso.com/oauth2/app-to-app/resume?token="))
            // The same reference twice: single use, and no longer readable.
            #expect(try await Self.decide(client, token: token, reference: reference, .approve).status == .badRequest)
            let decided = try await client.executeRequest(
                uri: "/oauth2/app-to-app/request?reference=\(reference)", method: .get,
                headers: [.authorization: "Bearer \(token)"], body: nil)
            #expect(decided.status == .badRequest)
            let resumed = try await merchant.get(try Self.path(of: resumeURI))
            #expect(resumed.status == .found)
            let consent = try await merchant.get(try #require(resumed.location))
            #expect(consent.body.contains("Example Merchant wants to:"))
            #expect(consent.body.contains("Signed in as Alice"))
            let done = try await merchant.decide("allow", on: consent)
            let parameters = try done.redirectParameters()
            #expect(try #require(done.location).hasPrefix(Self.merchantRedirect + "?"))
            #expect(parameters["state"] == "merchant-state")
            #expect(parameters["scope"] == "openid profile")
            let exchange = try await OpenIDFixture.redeem(
                client, code: try #require(parameters["code"]), clientID: "merchant-app", redirect: Self.merchantRedirect)
            #expect(exchange.status == .ok)
            let idToken = try #require(exchange.json["id_token"] as? String)
            let claims = try await bridge.app.keys.collection.verify(idToken, as: IDTokenClaims.self)
            #expect(claims.sub == "alice")
            #expect(claims.nonce == "merchant-nonce")
            // The resume link again: refused with a page.
            let twice = try await merchant.get(try Self.path(of: resumeURI))
            #expect(twice.status == .badRequest)
            #expect(twice.body.contains("already used"))
        }
    }

    @Test func theResumeLinkInAnotherBrowserOrAfterExpiryFailsWithAPage() async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let token = try await Self.hostAppToken(client)
            let merchant = TestBrowser(client)
            let reference = try Self.reference(in: try await merchant.get("/oauth2/authorize?" + Self.merchantQuery()))
            let resumeURI = try #require(
                try Self.callback(try await Self.decide(client, token: token, reference: reference, .approve)).resumeURI)
            let stranger = TestBrowser(client)
            _ = try await stranger.get("/oauth2/authorize?" + Self.merchantQuery())  // has its own browser cookie
            let other = try await stranger.get(try Self.path(of: resumeURI))
            #expect(other.status == .forbidden)
            #expect(other.body.contains("started in another browser"))
            bridge.clock.advance(by: 121)
            let late = try await merchant.get(try Self.path(of: resumeURI))
            #expect(late.status == .badRequest)
            #expect(late.body.contains("has expired"))
        }
    }

    @Test func aDenialAnswersTheCallbackWithAnErrorAndAnExpiredReferenceIsRefused() async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let token = try await Self.hostAppToken(client)
            let merchant = TestBrowser(client)
            let reference = try Self.reference(in: try await merchant.get("/oauth2/authorize?" + Self.merchantQuery()))
            let denied = try Self.callback(try await Self.decide(client, token: token, reference: reference, .deny))
            #expect(denied.state == "merchant-state")
            #expect(denied.error?.code == .accessDenied)
            #expect(denied.additionalParameters["iss"] == "https://contoso.com", "RFC 9207 section 2")
            let late = try Self.reference(in: try await merchant.get("/oauth2/authorize?" + Self.merchantQuery()))
            bridge.clock.advance(by: 121)
            let refused = try await Self.decide(client, token: token, reference: late, .approve)
            #expect(refused.status == .badRequest)
            #expect(String(buffer: refused.body).contains("the reference has expired"))
        }
    }

    @Test func onlyTheRegisteredHostAppWithAUserTokenMayDecide() async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let merchant = TestBrowser(client)
            let reference = try Self.reference(in: try await merchant.get("/oauth2/authorize?" + Self.merchantQuery()))
            let missing = try await client.executeRequest(
                uri: "/oauth2/app-to-app/decision", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: AppToAppApproval(reference: reference, decision: .approve).body))
            #expect(missing.status == .unauthorized)
            #expect(missing.headers[.wwwAuthenticate] == #"Bearer realm="https://contoso.com""#)
            let otherApp = try await Self.hostAppToken(client, clientID: "other-app", redirect: "com.contoso.other:/done")
            let forbidden = try await Self.decide(client, token: otherApp, reference: reference, .approve)
            #expect(forbidden.status == .forbidden)
            #expect(forbidden.headers[.wwwAuthenticate]?.contains(#"error="insufficient_scope""#) == true)
            let unreadable = try await client.executeRequest(
                uri: "/oauth2/app-to-app/request?reference=\(reference)", method: .get,
                headers: [.authorization: "Bearer \(otherApp)"], body: nil)
            #expect(unreadable.status == .forbidden)
            let token = try await Self.hostAppToken(client)
            let unknown = try await Self.decide(client, token: token, reference: "not-a-reference", .approve)
            #expect(unknown.status == .badRequest)
            // The refusals above used nothing up: the host app can still decide.
            #expect(try await Self.decide(client, token: token, reference: reference, .approve).status == .ok)
        }
    }

    @Test func theDefaultDeepLinkOpenedInABrowserSaysToUseTheApp() async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let page = try await TestBrowser(client).get("/app-to-app?reference=abc")
            #expect(page.status == .ok)
            #expect(page.body.contains("Open this link on a phone or tablet with the app installed"))
        }
    }

    @Test func theParkedPageStillSignsInWithAPassword() async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let merchant = TestBrowser(client)
            let parked = try await merchant.get("/oauth2/authorize?" + Self.merchantQuery())
            let afterSignIn = try await merchant.signIn(on: parked)
            #expect(afterSignIn.status == .seeOther)
            let consent = try await merchant.get(try #require(afterSignIn.location))
            #expect(consent.body.contains("Example Merchant wants to:"))
        }
    }

    @Test(arguments: [
        (merchantQuery(callback: nil), "requested_flow=app_to_app requires app_callback_uri"),
        (merchantQuery(callback: merchantCallback + "/"), "app_callback_uri is not registered for client 'merchant-app' (exact match)"),
        (merchantQuery().replacingOccurrences(of: "app_to_app", with: "app_to_app_v2"), "requested_flow is not supported"),
        (merchantQuery().replacingOccurrences(of: "&state=merchant-state", with: ""), "requested_flow=app_to_app requires state"),
    ])
    func requestsThatBreakTheFlowsRulesGoBackWithInvalidRequest(query: String, description: String) async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let page = try await TestBrowser(client).get("/oauth2/authorize?" + query)
            #expect(page.status == .found)
            let parameters = try page.redirectParameters()
            #expect(parameters["error"] == "invalid_request")
            #expect(parameters["error_description"] == description)
        }
    }

    @Test func withoutRedirectURIAnAppToAppRequestIsRefused() async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            // The client has one redirect URI, which a plain request may leave out; app_to_app must send it.
            let page = try await TestBrowser(client).get("/oauth2/authorize?" + Self.merchantQuery(redirect: nil))
            #expect(page.status == .found)
            #expect(try page.redirectParameters()["error_description"] == "requested_flow=app_to_app requires redirect_uri")
        }
    }

    @Test func aMismatchedRedirectURIAtTheTokenEndpointGetsRFC6749sSentence() async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let done = try await OpenIDFixture.signedInRedirect(TestBrowser(client), query: OpenIDFixture.query())
            let exchange = try await OpenIDFixture.redeem(client, code: try done.redirectCode(), redirect: "com.contoso.files:/done/")
            #expect(exchange.error == "invalid_grant")
            #expect(
                exchange.json["error_description"] as? String
                    == "The provided authorization grant (e.g., authorization code, resource owner credentials) or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client."
            )
        }
    }
}
