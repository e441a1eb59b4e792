@testable import BridgeHTTP
import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

/// The authorize endpoint over a real socket: what is shown, what is redirected, and where.
@Suite("Authorize endpoint")
struct AuthorizeEndpointTests {
    @Test func unregisteredRedirectURIGetsAnErrorPageNeverARedirect() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            for query in [
                "client_id=office&redirect_uri=https%3A%2F%2Fevil.example&response_type=code&state=s",
                "client_id=office&redirect_uri=https%3A%2F%2Flocalhost%2F&response_type=token&state=s",
                "client_id=nobody&redirect_uri=https%3A%2F%2Flocalhost&response_type=code",
                "redirect_uri=https%3A%2F%2Flocalhost&response_type=code",
            ] {
                let page = try await browser.get("/oauth2/authorize?" + query)
                #expect(page.status == .badRequest, "\(query)")
                #expect(page.location == nil, "\(query)")
                #expect(page.headers[.contentType] == "text/html; charset=utf-8")
                #expect(page.body.contains("Sign-in cannot continue"))
                #expect(!page.body.contains("evil.example\""))
            }
        }
    }

    @Test func errorsAfterRedirectValidationGoToTheClientWithErrorDescriptionAndState() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let page = try await browser.get(
                "/oauth2/authorize?client_id=office&redirect_uri=https%3A%2F%2Flocalhost&response_type=token&state=a%26b%3Dc")
            #expect(page.status == .found)
            #expect(page.location?.hasPrefix("https://localhost?") == true)
            let parameters = try page.redirectParameters()
            #expect(parameters["error"] == "unsupported_response_type")
            #expect(parameters["error_description"] == "response_type is not supported; use code")
            #expect(parameters["state"] == "a&b=c")

            let scope = try await browser.get("/oauth2/authorize?client_id=office&response_type=code&scope=admin&state=1")
            #expect(try scope.redirectParameters()["error"] == "invalid_scope")
            #expect(try scope.redirectParameters()["state"] == "1")
        }
    }

    @Test func duplicateParametersAreInvalidRequest() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let page = try await browser.get(AuthorizeEndpointTests.officeAuthorize + "&scope=wopi")
            let parameters = try page.redirectParameters()
            #expect(page.status == .found)
            #expect(parameters["error"] == "invalid_request")
            #expect(parameters["error_description"] == "parameter 'scope' appears more than once")
            #expect(parameters["state"] == "xyz/1")
            // Two client_ids: the client is unknown, so nothing can be redirected.
            let twoClients = try await browser.get("/oauth2/authorize?client_id=office&client_id=office&response_type=code")
            #expect(twoClients.status == .badRequest && twoClients.location == nil)
        }
    }

    @Test func publicClientsWithoutPKCEOrWithPlainAreRefusedByRedirect() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let base = "/oauth2/authorize?client_id=partner-app&redirect_uri=com.example.partner%3A%2Foauth2redirect&response_type=code&state=st"
            let missing = try await browser.get(base)
            #expect(missing.location?.hasPrefix("com.example.partner:/oauth2redirect?") == true)
            #expect(try missing.redirectParameters()["error"] == "invalid_request")
            #expect(try missing.redirectParameters()["error_description"] == "code_challenge is required (PKCE, RFC 7636)")
            #expect(try missing.redirectParameters()["state"] == "st")
            let plain = try await browser.get(base + "&code_challenge=\(AuthorizeFixture.verifier)&code_challenge_method=plain")
            #expect(try plain.redirectParameters()["error_description"] == "code_challenge_method is not supported; use S256")
            let s256 = try await browser.get(base + "&code_challenge=\(AuthorizeFixture.challenge)&code_challenge_method=S256")
            #expect(s256.status == .ok)
            #expect(s256.body.contains("<form method=\"post\""))
        }
    }

    @Test func signInPageFollowsOfficeCultureAndAcceptLanguageAndFitsPhones() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let english = try await browser.get(AuthorizeEndpointTests.officeAuthorize)
            #expect(english.status == .ok)
            #expect(english.headers[.contentLanguage] == "en")
            #expect(english.body.contains("<html lang=\"en\">"))
            #expect(english.body.contains("to continue to Microsoft Office"))
            #expect(english.body.contains(#"<p class="service">contoso.com</p>"#))
            #expect(english.body.contains(#"<meta name="viewport" content="width=device-width, initial-scale=1">"#))
            #expect(english.body.contains(#"<a href="/privacy">Privacy statement</a>"#))
            #expect(!english.body.contains("<script"))
            #expect(english.body.contains(#"autocorrect="off" spellcheck="false" required autofocus>"#))

            browser.acceptLanguage = "nb-NO,nb;q=0.9,en;q=0.5"
            let norwegian = try await browser.get(
                "/oauth2/authorize?client_id=office&response_type=code&state=1&Rs=xxXX&BUILD=16.1&Platform=android")
            #expect(norwegian.status == .ok)
            #expect(norwegian.body.contains("<html lang=\"nb\">"))
            #expect(norwegian.body.contains("Logg inn"))
            #expect(norwegian.body.contains("Personvernerklæring"))
        }
    }

    @Test func htmlPagesCarryAStrictCSPThatAllowsTheRedirectTarget() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let page = try await browser.get(AuthorizeEndpointTests.officeAuthorize)
            let csp = try #require(page.headers[.contentSecurityPolicy])
            #expect(csp.hasPrefix("default-src 'none'; style-src 'sha256-"))
            #expect(csp.contains("form-action 'self' https://localhost;"))
            #expect(csp.contains("frame-ancestors 'none'"))
            #expect(!csp.contains("unsafe-inline"))
            #expect(page.headers[.cacheControl] == "no-store")
            #expect(page.headers[.xFrameOptions] == "DENY")
            let privacy = try await browser.get("/privacy")
            #expect(privacy.status == .ok && privacy.body.contains("Privacy statement"))
        }
    }

    @Test func authorizeAcceptsAFormPost() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let page = try await browser.post(
                "/oauth2/authorize", form: try FormParameters.decode(AuthorizeFixture.officeQuery))
            #expect(page.status == .ok)
            #expect(page.formAction?.hasPrefix("/oauth2/interaction/") == true)
            let json = try await browser.send(
                "/oauth2/authorize", method: .post, headers: [.contentType: "application/json"],
                body: #"{"client_id":"office"}"#)
            #expect(json.status == .badRequest && json.location == nil)
            #expect(json.body.contains("application/x-www-form-urlencoded"))
            let wrong = try await browser.post("/oauth2/authorize", form: try FormParameters.decode("client_id=office&response_type=token"))
            #expect(wrong.status == .seeOther)
            #expect(try wrong.redirectParameters()["error"] == "unsupported_response_type")
        }
    }

    @Test func metadataAnnouncesTheAuthorizationEndpointAndS256Only() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/.well-known/oauth-authorization-server", method: .get) { response in
                let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(json["authorization_endpoint"] as? String == "https://contoso.com/oauth2/authorize")
                #expect(json["response_types_supported"] as? [String] == ["code"])
                #expect(json["code_challenge_methods_supported"] as? [String] == ["S256"])
            }
        }
    }

    static let officeAuthorize = "/oauth2/authorize?" + AuthorizeFixture.officeQuery
}

extension HTTPField.Name {
    static let xFrameOptions = Self("X-Frame-Options")!
}
