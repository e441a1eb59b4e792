import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

/// `POST /oauth/exchange` with `type=session`, opened by a browser at `/auth/session/{code}`, over a real socket.
@Suite("Exchange codes: type=session")
struct SessionCodeTests {
    static func sessionCode(
        _ client: some TestClientProtocol, _ token: String, redirectURI: String? = nil
    ) async throws -> OAuthExchange {
        try await client.exchange(token, clientId: "contoso-web", type: "session", redirectURI: redirectURI)
    }

    @Test func aBrowserOpensTheCodeOnceGetsASessionAndGoesToTheRegisteredURI() async throws {
        let bridge = try await ExchangeFixture.make()
        let user = try await bridge.issueToken(user: "alice", client: "contoso-app")
        try await bridge.app.makeApplication().test(.live) { client in
            let issued = try await Self.sessionCode(client, user.token)
            #expect(issued.status == .ok)
            #expect(issued.json["type"] as? String == "session")
            #expect(issued.json["expires_in"] as? Int == 60)
            let code = try #require(issued.json["code"] as? String)

            let browser = TestBrowser(client)
            let opened = try await browser.get("/auth/session/\(code)")
            #expect(opened.status == .found)
            #expect(opened.location == "https://web.contoso.com/home")
            let cookie = try #require(opened.headers[.setCookie])
            #expect(cookie.hasPrefix("__Host-sib_session="))
            #expect(cookie.contains("HttpOnly") && cookie.contains("Secure") && cookie.contains("SameSite=Lax"))

            // The session is real: the web client's (first-party) authorize request finishes without a sign-in page.
            let authorize = try await browser.get(
                "/oauth2/authorize?client_id=contoso-web&redirect_uri=https%3A%2F%2Fweb.contoso.com%2Fhome"
                    + "&response_type=code&code_challenge=\(AuthorizeFixture.challenge)&code_challenge_method=S256&state=s")
            #expect(authorize.status == .found)
            #expect(authorize.location?.hasPrefix("https://web.contoso.com/home?") == true)
            #expect(authorize.location?.contains("code=") == true)

            // Replay: refused, and no second session.
            let other = TestBrowser(client)
            let replay = try await other.get("/auth/session/\(code)")
            #expect(replay.status == .badRequest)
            #expect(replay.headers[.setCookie] == nil)
            #expect(replay.location == nil)
        }
    }

    @Test func theRedirectMustBeRegisteredForTheTarget() async throws {
        let bridge = try await ExchangeFixture.make()
        let user = try await bridge.issueToken(user: "alice", client: "contoso-app")
        try await bridge.app.makeApplication().test(.live) { client in
            let chosen = try await Self.sessionCode(client, user.token, redirectURI: "https://web.contoso.com/account")
            let code = try #require(chosen.json["code"] as? String)
            #expect(try await TestBrowser(client).get("/auth/session/\(code)").location == "https://web.contoso.com/account")
            let foreign = try await Self.sessionCode(client, user.token, redirectURI: "https://evil.example/steal")
            #expect(foreign.error == "invalid_request")
            #expect(foreign.json["code"] == nil)
            let otherMerchant = try await client.exchange(user.token, clientId: "fabrikam-backend", type: "session")
            #expect(otherMerchant.error == "invalid_request")
        }
    }

    @Test func aSessionCodeExpiresAfterSixtySecondsAndBadCodesGetThePage() async throws {
        let bridge = try await ExchangeFixture.make()
        let user = try await bridge.issueToken(user: "alice", client: "contoso-app")
        try await bridge.app.makeApplication().test(.live) { client in
            let code = try #require(try await Self.sessionCode(client, user.token).json["code"] as? String)
            bridge.clock.advance(by: 60)
            let browser = TestBrowser(client)
            let late = try await browser.get("/auth/session/\(code)")
            #expect(late.status == .badRequest)
            #expect(late.headers[.setCookie] == nil)
            #expect(late.body.contains("expired"))
            for bad in [SecretToken().value, "short", "not%20a%20code"] {
                let page = try await browser.get("/auth/session/\(bad)")
                #expect(page.status == .badRequest, "\(bad)")
                #expect(page.headers[.setCookie] == nil)
            }
        }
    }
}
