import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

/// The whole Office flow over one socket: authorize → sign in → consent → final redirect with `code`, `tk`, `sc` →
/// code exchange at the `tk` URL with `X-WOPI-SessionContext` → authenticated bootstrap → refresh → replay.
@Suite("Authorize to token over the wire")
struct AuthorizeToTokenTests {
    @Test func officeRedeemsTheCodeFromTheFinalRedirectAtItsTkURLAndBootstraps() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let consent = try await SignInFlowTests.signInToConsent(browser)
            let done = try await browser.decide("allow", on: consent)
            let location = try #require(done.location)
            let response = try AuthorizationResponse.decode(redirectURL: location)
            guard case .success(let success) = response.outcome else { Issue.record("no code"); return }
            let tkString = try #require(success.tokenEndpoint)
            let tk = try #require(URL(string: tkString))
            let sessionContext = try #require(success.sessionContext)
            // Office posts to the tk URL as given (path and query), with sc echoed in the header (Microsoft's Office app-to-app docs).
            let pathAndQuery = tk.path + (tk.query.map { "?" + $0 } ?? "")
            let exchange = try await client.redeem(
                success.code, path: pathAndQuery, headers: [HTTPField.Name("X-WOPI-SessionContext")!: sessionContext])
            #expect(exchange.status == .ok)
            expectNoStore(exchange)
            let access = try #require(exchange.accessToken)
            #expect(try await client.bootstrapStatus(access) == .ok)
            let refreshToken = try #require(exchange.refreshToken)
            let refreshed = try await client.postForm(
                pathAndQuery, ["grant_type": "refresh_token", "refresh_token": refreshToken],
                basic: ("office", TokenTestClients.officeSecret))
            #expect(refreshed.status == .ok)
            let refreshedAccess = try #require(refreshed.accessToken)
            #expect(try await client.bootstrapStatus(refreshedAccess) == .ok)
            // The same code again: refused, and everything issued from it is revoked (RFC 9700 §4.2.4).
            #expect(try await client.redeem(success.code).error == "invalid_grant")
            #expect(try await client.bootstrapStatus(access) == .unauthorized)
        }
    }

    @Test func aPartnerAppRedeemsItsCodeWithTheRFC7636Verifier() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let query =
                "client_id=partner-app&redirect_uri=com.example.partner%3A%2Foauth2redirect&response_type=code&scope=wopi"
                + "&state=s1&code_challenge=\(AuthorizeFixture.challenge)&code_challenge_method=S256"
            let consent = try await SignInFlowTests.signInToConsent(browser, query: query)
            let done = try await browser.decide("allow", on: consent)
            let location = try #require(done.location)
            let response = try AuthorizationResponse.decode(redirectURL: location)
            guard case .success(let success) = response.outcome else { Issue.record("no code"); return }
            let form: KeyValuePairs<String, String> = [
                "grant_type": "authorization_code", "code": success.code,
                "redirect_uri": "com.example.partner:/oauth2redirect", "client_id": "partner-app",
                "code_verifier": AuthorizeFixture.verifier,
            ]
            let exchange = try await client.postForm("/oauth2/token", form)
            #expect(exchange.status == .ok)
            #expect(exchange.refreshToken == nil)  // this fixture's partner-app is not registered for refresh_token
            let access = try #require(exchange.accessToken)
            #expect(try await client.bootstrapStatus(access) == .ok)
        }
    }
}
