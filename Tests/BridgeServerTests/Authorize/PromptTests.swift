@testable import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import HummingbirdTesting
import SignInProtocol
import Testing

/// `prompt` and `max_age` (OpenID Connect Core §3.1.2.1): the check, then the behaviour over a real socket.
@Suite("Authorize: prompt and max_age")
struct PromptTests {
    @Test func checkPromptAcceptsTheKnownValuesAndRefusesTheRest() throws {
        var draft = try AuthorizeChecksTests.draft(AuthorizeFixture.officeQuery + "&prompt=login%20consent&max_age=300")
        try CheckPrompt().check(&draft)
        #expect(draft.prompt == ["login", "consent"] && draft.maxAge == 300)
        let refused: [(String, String)] = [
            ("prompt=bogus", "prompt holds a value that is not supported"),
            ("prompt=none%20login", "prompt=none cannot be combined with other values"),
            ("prompt=login&prompt=none", "parameter 'prompt' appears more than once"),
            ("max_age=-1", "max_age must be a whole number of seconds"),
            ("max_age=1e3", "max_age must be a whole number of seconds"),
            ("max_age=9999999999", "max_age must be a whole number of seconds"),
        ]
        for (extra, message) in refused {
            var draft = try AuthorizeChecksTests.draft(AuthorizeFixture.officeQuery + "&" + extra)
            #expect(throws: OAuthError.invalidRequest(message), "\(extra)") { try CheckPrompt().check(&draft) }
        }
    }

    /// A browser that signed in and allowed Office once: it has a session and a remembered consent.
    static func signedInBrowser(_ client: some TestClientProtocol) async throws -> TestBrowser {
        let browser = TestBrowser(client)
        let consent = try await SignInFlowTests.signInToConsent(browser)
        #expect(try await browser.decide("allow", on: consent).status == .seeOther)
        return browser
    }

    static func error(in location: String?) throws -> String? {
        let response = try AuthorizationResponse.decode(redirectURL: try #require(location))
        guard case .failure(let failure) = response.outcome else { return nil }
        #expect(response.state == "xyz/1")
        return failure.code.rawValue
    }

    @Test func promptNoneAnswersWithoutAnyPage() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            // No session: login_required, straight to the client.
            let anonymous = try await TestBrowser(client).get(AuthorizeEndpointTests.officeAuthorize + "&prompt=none")
            #expect(anonymous.status == .found)
            #expect(try Self.error(in: anonymous.location) == "login_required")
            // Signed in, but the user said no last time (nothing remembered): consent_required.
            let refuser = TestBrowser(client)
            let consent = try await SignInFlowTests.signInToConsent(refuser)
            #expect(try await refuser.decide("deny", on: consent).status == .seeOther)
            let unconsented = try await refuser.get(AuthorizeEndpointTests.officeAuthorize + "&prompt=none")
            #expect(try Self.error(in: unconsented.location) == "consent_required")
            // Signed in and consented before: a code, still without a page.
            let browser = try await Self.signedInBrowser(client)
            let silent = try await browser.get(AuthorizeEndpointTests.officeAuthorize + "&prompt=none")
            #expect(silent.status == .found)
            #expect(try #require(silent.location).contains("code="))
        }
    }

    @Test func promptLoginAndMaxAgeAskForAFreshSignIn() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = try await Self.signedInBrowser(client)
            bridge.clock.advance(by: 120)
            // The session alone is enough without prompt: a code.
            #expect(try #require(try await browser.get(AuthorizeEndpointTests.officeAuthorize).location).contains("code="))
            // prompt=login: the sign-in page, although the session is active; after signing in, a code.
            let again = try await browser.get(AuthorizeEndpointTests.officeAuthorize + "&prompt=login")
            #expect(again.status == .ok && again.formAction?.hasSuffix("/signin") == true)
            let signedIn = try await browser.signIn(on: again)
            let done = try await browser.get(try #require(signedIn.location))
            #expect(try #require(done.location).contains("code="))
            // max_age: a sign-in 120 s old is too old for 60, young enough for 300.
            bridge.clock.advance(by: 120)
            let old = try await browser.get(AuthorizeEndpointTests.officeAuthorize + "&max_age=60")
            #expect(old.status == .ok && old.formAction?.hasSuffix("/signin") == true)
            let recent = try await browser.get(AuthorizeEndpointTests.officeAuthorize + "&max_age=300")
            #expect(try #require(recent.location).contains("code="))
        }
    }

    /// The consent form is posted by the browser: one posted straight to it, with the old session, must not skip
    /// the fresh sign-in that prompt=login demands.
    @Test func promptLoginCannotBeSkippedByPostingTheConsentForm() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = try await Self.signedInBrowser(client)
            bridge.clock.advance(by: 120)
            let signInPage = try await browser.get(AuthorizeEndpointTests.officeAuthorize + "&prompt=login")
            let signInAction = try #require(signInPage.formAction)
            #expect(signInAction.hasSuffix("/signin"))
            var form = FormParameters()
            let csrf: String = try #require(signInPage.hiddenValue("csrf_token"))
            form.append("csrf_token", csrf)
            form.append("decision", "allow")
            let skipped = try await browser.post(
                String(signInAction.dropLast("/signin".count)) + "/consent", form: form)
            // Back to the interaction, which asks for the sign-in again; no code.
            #expect(skipped.status == .seeOther)
            #expect(skipped.location?.contains("code=") == false)
            let next = try await browser.get(try #require(skipped.location))
            #expect(next.formAction?.hasSuffix("/signin") == true)
        }
    }

    @Test func promptConsentShowsTheConsentPageAgain() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = try await Self.signedInBrowser(client)
            let page = try await browser.get(AuthorizeEndpointTests.officeAuthorize + "&prompt=consent")
            #expect(page.status == .ok && page.formAction?.hasSuffix("/consent") == true)
        }
    }
}
