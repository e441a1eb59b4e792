import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

/// Sign-in, consent and the final redirect over a real socket, with cookies on the wire.
@Suite("Sign-in and consent")
struct SignInFlowTests {
    /// Authorize → sign-in page → sign in → consent page; returns the consent page.
    static func signInToConsent(_ browser: TestBrowser, query: String = AuthorizeFixture.officeQuery) async throws
        -> TestBrowser.Page
    {
        let signInPage = try await browser.get("/oauth2/authorize?" + query)
        #expect(signInPage.status == .ok)
        let afterSignIn = try await browser.signIn(on: signInPage)
        #expect(afterSignIn.status == .seeOther)
        let next = try #require(afterSignIn.location)
        #expect(next.hasPrefix("/oauth2/interaction/"))
        return try await browser.get(next)
    }

    @Test func officeFlowEndsInACodeWithStateTkAndScBoundToEverythingTheTokenEndpointChecks() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let consent = try await Self.signInToConsent(browser)
            #expect(consent.status == .ok)
            #expect(consent.body.contains("Microsoft Office wants to:"))
            #expect(consent.body.contains("Open and edit your files"))
            #expect(consent.body.contains("Signed in as Alice"))
            let done = try await browser.decide("allow", on: consent)
            #expect(done.status == .seeOther)
            let location = try #require(done.location)
            #expect(location.hasPrefix("https://localhost?state=xyz%2F1&code="))
            let response = try AuthorizationResponse.decode(redirectURL: location)
            #expect(response.state == "xyz/1")
            guard case .success(let success) = response.outcome else { Issue.record("no code"); return }
            #expect(success.tokenEndpoint == "https://contoso.com/api/token/?extra=stuff")
            #expect(location.contains("&tk=https%3A%2F%2Fcontoso.com%2Fapi%2Ftoken%2F%3Fextra%3Dstuff&sc="))
            let sessionContext = try #require(success.sessionContext)

            // What the token helper redeems: hashed at rest, bound to client, redirect URI, scope, grant; 60 s.
            let now = bridge.clock.now
            guard case .redeemed(let code, _) = try await bridge.store.redeemAuthorizationCode(TokenDigest(of: success.code), at: now)
            else { Issue.record("code not redeemable"); return }
            #expect(code.clientID == "office")
            #expect(code.redirectURI == "https://localhost")
            #expect(code.scope == "wopi")
            #expect(code.codeChallenge == nil)
            #expect(code.expiresAt == now.addingTimeInterval(60))
            let grant = try #require(try await bridge.store.grant(id: code.grantID))
            #expect(grant.userID == "alice" && grant.clientID == "office")
            #expect(grant.sessionContext == sessionContext)
        }
    }

    @Test func codeExpiresAfterSixtySecondsOfTheInjectedClock() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let done = try await browser.decide("allow", on: try await Self.signInToConsent(browser))
            let code = try done.redirectCode()
            bridge.clock.advance(by: 60)
            #expect(try await bridge.store.redeemAuthorizationCode(TokenDigest(of: code), at: bridge.clock.now) == .expired)
        }
    }

    @Test func publicClientCodeCarriesThePKCEChallengeAndLoopbackPort() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let query = "client_id=partner-app&redirect_uri=http%3A%2F%2F127.0.0.1%3A49152%2Fcallback&response_type=code"
                + "&code_challenge=\(AuthorizeFixture.challenge)&code_challenge_method=S256&state=p"
            let consent = try await Self.signInToConsent(browser, query: query)
            #expect(consent.headers[.contentSecurityPolicy]?.contains("form-action 'self' http://127.0.0.1:49152;") == true)
            let done = try await browser.decide("allow", on: consent)
            let location = try #require(done.location)
            #expect(location.hasPrefix("http://127.0.0.1:49152/callback?state=p&code="))
            #expect(!location.contains("sc=") && !location.contains("tk="))
            let code = try #require(try AuthorizationResponse.decode(redirectURL: location).code)
            guard case .redeemed(let record, _) = try await bridge.store.redeemAuthorizationCode(TokenDigest(of: code), at: bridge.clock.now)
            else { Issue.record("not redeemable"); return }
            #expect(record.codeChallenge == AuthorizeFixture.challenge && record.codeChallengeMethod == "S256")
            #expect(record.redirectURI == "http://127.0.0.1:49152/callback")
        }
    }

    @Test func denyingConsentSendsAccessDeniedWithState() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let done = try await browser.decide("deny", on: try await Self.signInToConsent(browser))
            let parameters = try done.redirectParameters()
            #expect(parameters["error"] == "access_denied")
            #expect(parameters["state"] == "xyz/1")
            #expect(parameters["code"] == nil)
        }
    }

    @Test func consentIsRememberedAndFirstPartyClientsSkipIt() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            _ = try await browser.decide("allow", on: try await Self.signInToConsent(browser))
            // Signed in, consent remembered: straight back to Office with a code.
            let again = try await browser.get(AuthorizeEndpointTests.officeAuthorize)
            #expect(again.status == .found)
            #expect(try again.redirectParameters()["code"] != nil)
            // The host's own app: no consent page even on first use.
            let own = try await browser.get(
                "/oauth2/authorize?client_id=own-app&response_type=code&code_challenge=\(AuthorizeFixture.challenge)&code_challenge_method=S256")
            #expect(own.status == .found)
            #expect(own.location?.hasPrefix("com.contoso.files:/done?code=") == true)
            // A partner app the user never allowed still asks.
            let partner = try await browser.get(
                "/oauth2/authorize?client_id=partner-app&redirect_uri=com.example.partner%3A%2Foauth2redirect&response_type=code&code_challenge=\(AuthorizeFixture.challenge)&code_challenge_method=S256")
            #expect(partner.status == .ok && partner.body.contains("wants to:"))
        }
    }

    @Test func cookiesAreHttpOnlySameSiteLaxAndSecureWithTheHostPrefix() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            _ = try await Self.signInToConsent(browser)
            let browserCookie = try #require(browser.setCookieLines.first { $0.hasPrefix("__Host-sib_browser=") })
            let sessionCookie = try #require(browser.setCookieLines.first { $0.hasPrefix("__Host-sib_session=") })
            for line in [browserCookie, sessionCookie] {
                let attributes = Set(line.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
                #expect(attributes.contains("httponly"), "\(line)")
                #expect(attributes.contains("secure"), "\(line)")
                #expect(attributes.contains("samesite=lax"), "\(line)")
                #expect(attributes.contains("path=/"), "\(line)")
                #expect(!attributes.contains { $0.hasPrefix("domain=") }, "\(line)")
            }
            #expect(sessionCookie.lowercased().contains("max-age=28800"))
        }
    }

    @Test func cookiesAreNotSecureOnlyForALoopbackHTTPIssuer() async throws {
        let bridge = try await TestBridge.make(.authorizeFixture.issuer("http://127.0.0.1:8080"))
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            _ = try await browser.get(AuthorizeEndpointTests.officeAuthorize)
            let line = try #require(browser.setCookieLines.first { $0.hasPrefix("sib_browser=") })
            #expect(!line.lowercased().contains("secure"))
            #expect(line.lowercased().contains("httponly") && line.lowercased().contains("samesite=lax"))
        }
    }

    @Test func missingCSRFTokenIs400AndAWrongOneIs403() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let page = try await browser.get(AuthorizeEndpointTests.officeAuthorize)
            let action = try #require(page.formAction)
            let missing = try await browser.post(action, form: FormParameters(["username": "alice@contoso.com", "password": AuthorizeFixture.password]))
            #expect(missing.status == .badRequest)
            #expect(missing.headers[.setCookie] == nil)
            let wrong = try await browser.post(
                action,
                form: FormParameters([
                    "csrf_token": String(repeating: "A", count: 43), "username": "alice@contoso.com",
                    "password": AuthorizeFixture.password,
                ]))
            #expect(wrong.status == .forbidden)
            #expect(wrong.headers[.setCookie] == nil)
            // The right token from another browser (no binding cookie) does not help either.
            let other = TestBrowser(client)
            var form = FormParameters()
            let csrf: String = try #require(page.hiddenValue("csrf_token"))
        form.append("csrf_token", csrf)
            form.append("username", "alice@contoso.com")
            form.append("password", AuthorizeFixture.password)
            #expect(try await other.post(action, form: form).status == .forbidden)
        }
    }

    @Test func wrongPasswordsAreThrottledPerAccountAndPerAddress() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let page = try await browser.get(AuthorizeEndpointTests.officeAuthorize)
            for _ in 0..<3 {
                let failed = try await browser.signIn(on: page, password: "wrong")
                #expect(failed.status == .ok)
                #expect(failed.body.contains("The user name or password is incorrect."))
                #expect(failed.body.contains("value=\"alice@contoso.com\""))
            }
            // Over the limit (3 in this fixture): even the right password waits.
            let throttled = try await browser.signIn(on: page)
            #expect(throttled.status == .tooManyRequests)
            #expect(throttled.headers[.retryAfter] == "900")
            #expect(throttled.body.contains("Too many failed sign-ins. Wait 15 minutes"))
            // Per address too: another account from the same address is throttled.
            #expect(try await browser.signIn(on: page, user: "bob@contoso.com").status == .tooManyRequests)
            // After the window, the right password works.
            bridge.clock.advance(by: 901)
            let fresh = try await browser.get(AuthorizeEndpointTests.officeAuthorize)
            #expect(try await browser.signIn(on: fresh).status == .seeOther)
        }
    }

    @Test func unknownUsersGetTheSameAnswerAsWrongPasswords() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let page = try await browser.get(AuthorizeEndpointTests.officeAuthorize)
            let unknown = try await browser.signIn(on: page, user: "nobody@contoso.com", password: "x")
            #expect(unknown.status == .ok && unknown.body.contains("The user name or password is incorrect."))
        }
    }

    @Test func passwordChangeEndsSessionsAndRevokesGrantsSoTheUserSignsInAgain() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let done = try await browser.decide("allow", on: try await Self.signInToConsent(browser))
            let code = try done.redirectCode()
            let trips = bridge.store.roundTrips
            let change = try #require(try await bridge.app.changePassword(userID: "alice", to: "a new password"))
            #expect(change.endedSessions == 1 && change.revokedGrants == 1)
            #expect(bridge.store.roundTrips - trips == 1)
            #expect(try await bridge.app.changePassword(userID: "nobody", to: "a new password") == nil)
            // The code's grant is revoked, so it cannot be redeemed any more.
            #expect(try await bridge.store.redeemAuthorizationCode(TokenDigest(of: code), at: bridge.clock.now) == .revoked)
            // The session is gone: the next authorize shows the sign-in page, and the old password fails.
            let page = try await browser.get(AuthorizeEndpointTests.officeAuthorize)
            #expect(page.status == .ok && page.body.contains("autocomplete=\"current-password\""))
            #expect(try await browser.signIn(on: page).body.contains("The user name or password is incorrect."))
            #expect(try await browser.signIn(on: page, password: "a new password").status == .seeOther)
        }
    }

    @Test func aPendingRequestEndsInOneCodeAndExpires() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let consent = try await Self.signInToConsent(browser)
            #expect(try await browser.decide("allow", on: consent).status == .seeOther)
            // Submitting the same consent again (back button) issues nothing.
            let again = try await browser.decide("allow", on: consent)
            #expect(again.status == .badRequest && again.location == nil)
            // A request left alone for longer than its lifetime (900 s) expires (a new browser: no session yet).
            let fresh = TestBrowser(client)
            let page = try await fresh.get(AuthorizeEndpointTests.officeAuthorize)
            bridge.clock.advance(by: 901)
            let late = try await fresh.signIn(on: page)
            #expect(late.status == .badRequest)
            #expect(late.body.contains("This sign-in has expired."))
        }
    }
}
