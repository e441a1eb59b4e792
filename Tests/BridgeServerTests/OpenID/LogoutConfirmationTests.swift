import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

@testable import BridgeServer

/// OpenID Connect RP-Initiated Logout 1.0 §2 and §6 over the wire: a logout without a valid id_token_hint ends
/// nothing until the user confirms it on a form whose token only the signed-in browser was given.
@Suite("RP-initiated logout asks first")
struct LogoutConfirmationTests {
    static func stillSignedIn(_ browser: TestBrowser) async throws -> Bool {
        let silent = try await browser.get("/oauth2/authorize?" + OpenIDFixture.query(extra: [("prompt", "none")]))
        return try silent.redirectParameters()["code"] != nil
    }

    @Test func aLogoutWithoutAHintIsConfirmedBeforeAnythingEnds() async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            _ = try await OpenIDFixture.signedInRedirect(browser, query: OpenIDFixture.query())
            var query = FormParameters()
            query.append("client_id", "host-app")
            query.append("post_logout_redirect_uri", "com.contoso.files:/signed-out")
            query.append("state", "bye")
            // A cross-site top-level navigation: the page asks, and the session lives on.
            let asked = try await browser.get("/oauth2/logout?" + query.encoded)
            #expect(asked.status == .ok)
            #expect(asked.body.contains("Sign out?"))
            #expect(asked.formAction == EndSessionEndpoint.path)
            #expect(asked.hiddenValue("post_logout_redirect_uri") == "com.contoso.files:/signed-out")
            #expect(asked.hiddenValue("state") == "bye")
            // The post redirects to the client's scheme, so form-action allows it (CSP 3 §6.3.1).
            #expect(asked.headers[.contentSecurityPolicy]?.contains("form-action 'self' com.contoso.files:") == true)
            let token = try #require(asked.hiddenValue("csrf_token"))
            #expect(try await Self.stillSignedIn(browser))
            // The token in a query, a cross-site post without it, or another browser's token: asked again.
            var withTokenInQuery = query
            withTokenInQuery.append("csrf_token", token)
            #expect(try await browser.get("/oauth2/logout?" + withTokenInQuery.encoded).body.contains("Sign out?"))
            let forged = try await browser.post("/oauth2/logout", form: query)
            #expect(forged.status == .ok && forged.body.contains("Sign out?"))
            let otherBrowser = TestBrowser(client)
            _ = try await OpenIDFixture.signedInRedirect(otherBrowser, query: OpenIDFixture.query())
            let theirs = try #require(try await otherBrowser.get("/oauth2/logout").hiddenValue("csrf_token"))
            var wrong = query
            wrong.append("csrf_token", theirs)
            #expect(try await browser.post("/oauth2/logout", form: wrong).body.contains("Sign out?"))
            #expect(try await Self.stillSignedIn(browser))
            // Confirmed: signed out, and back to the client with its state (303 after a post).
            var confirmed = FormParameters()
            confirmed.append("csrf_token", token)
            for name in ["client_id", "post_logout_redirect_uri", "state"] { confirmed.append(name, asked.hiddenValue(name)) }
            let out = try await browser.post("/oauth2/logout", form: confirmed)
            #expect(out.status == .seeOther)
            #expect(out.location == "com.contoso.files:/signed-out?state=bye")
            #expect(try await !Self.stillSignedIn(browser))
            // A cookie that names no live session has nothing to end: no question.
            let again = try await browser.get("/oauth2/logout")
            #expect(again.body.contains("You are signed out."))
        }
    }

    @Test func aBrowserWithoutASessionHasNothingToConfirm() async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let page = try await TestBrowser(client).get("/oauth2/logout")
            #expect(page.status == .ok)
            #expect(page.body.contains("You are signed out."))
        }
    }

    @Test func theTokenIsBoundToTheSessionCookie() {
        let secret = SecretToken().value
        let token = LogoutConfirmation.token(forSession: secret)
        #expect(token.utf8.count == 43)
        #expect(LogoutConfirmation.confirms(token, session: secret))
        #expect(!LogoutConfirmation.confirms(token, session: SecretToken().value))
        #expect(!LogoutConfirmation.confirms(nil, session: secret))
        #expect(!LogoutConfirmation.confirms(String(token.dropLast()) + "A", session: secret) || token.hasSuffix("A"))
    }
}
