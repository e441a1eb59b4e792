@testable import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import HummingbirdTesting
import SignInProtocol
import Testing

/// Pushed authorization requests (RFC 9126) over a socket: the push authenticates the client and runs every
/// authorize check, the `request_uri` is taken once, by that client, before it expires; a client (or a server)
/// that requires PAR gets no plain authorize request through.
@Suite("Pushed authorization requests over the wire")
struct PushedAuthorizationTests {
    static let office = ("office", TokenTestClients.officeSecret)
    static let officePush: KeyValuePairs<String, String> = [
        "response_type": "code", "redirect_uri": "https://localhost", "scope": "wopi", "state": "pushed-state",
    ]

    static func authorize(_ browser: TestBrowser, client: String, requestURI: String) async throws -> TestBrowser.Page {
        var query = FormParameters()
        query.append("client_id", client)
        query.append("request_uri", requestURI)
        return try await browser.get("/oauth2/authorize?" + query.encoded)
    }

    @Test func aPushedRequestIsTakenOnceByItsClientAndLeadsToTheCode() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let pushed = try await client.postForm(PushedAuthorizationEndpoint.path, Self.officePush, basic: Self.office)
            #expect(pushed.status == .created)
            expectNoStore(pushed)
            let requestURI = try #require(pushed.json["request_uri"] as? String)
            #expect(requestURI.hasPrefix("urn:ietf:params:oauth:request_uri:"))
            #expect(pushed.json["expires_in"] as? Int == 60)

            let other = try await Self.authorize(TestBrowser(client), client: "partner-app", requestURI: requestURI)
            #expect(other.status == .badRequest && other.body.contains("invalid_request_uri"), "bound to the client")
            let browser = TestBrowser(client)
            let signIn = try await Self.authorize(browser, client: "office", requestURI: requestURI)
            #expect(signIn.status == .ok && signIn.formAction?.hasPrefix("/oauth2/interaction/") == true)
            let signedIn = try await browser.signIn(on: signIn)
            let consent = try await browser.get(try #require(signedIn.location))
            let done = try await browser.decide("allow", on: consent)
            let parameters = try done.redirectParameters()
            #expect(parameters["state"] == "pushed-state" && parameters["code"] != nil)
            let again = try await Self.authorize(TestBrowser(client), client: "office", requestURI: requestURI)
            #expect(again.status == .badRequest && again.body.contains("invalid_request_uri"), "used once")
        }
    }

    @Test func anExpiredOrUnknownRequestURIIsInvalidRequestURI() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let pushed = try await client.postForm(PushedAuthorizationEndpoint.path, Self.officePush, basic: Self.office)
            let requestURI = try #require(pushed.json["request_uri"] as? String)
            bridge.clock.advance(by: 61)
            let late = try await Self.authorize(TestBrowser(client), client: "office", requestURI: requestURI)
            #expect(late.status == .badRequest && late.location == nil && late.body.contains("invalid_request_uri"))
            for unknown in ["urn:ietf:params:oauth:request_uri:" + SecretToken().value, "https://example.com/request"] {
                let page = try await Self.authorize(TestBrowser(client), client: "office", requestURI: unknown)
                #expect(page.status == .badRequest && page.body.contains("invalid_request_uri"), "\(unknown)")
            }
        }
    }

    @Test func thePushAuthenticatesTheClientAndRunsTheAuthorizeChecks() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let anonymous = try await client.postForm(PushedAuthorizationEndpoint.path, Self.officePush)
            #expect(anonymous.status == .unauthorized && anonymous.error == "invalid_client")
            let wrongSecret = try await client.postForm(
                PushedAuthorizationEndpoint.path, Self.officePush, basic: ("office", "not-the-secret"))
            #expect(wrongSecret.status == .unauthorized && wrongSecret.error == "invalid_client")
            let unregistered = try await client.postForm(
                PushedAuthorizationEndpoint.path, ["response_type": "code", "redirect_uri": "https://evil.example/cb"],
                basic: Self.office)
            #expect(unregistered.status == .badRequest && unregistered.error == "invalid_request")
            // A public client without PKCE: the check that redirects at the authorization endpoint answers here.
            let noPKCE = try await client.postForm(
                PushedAuthorizationEndpoint.path,
                ["client_id": "partner-app", "response_type": "code", "redirect_uri": "com.example.partner:/oauth2redirect"])
            #expect(noPKCE.status == .badRequest && noPKCE.error == "invalid_request")
            let nested = try await client.postForm(
                PushedAuthorizationEndpoint.path,
                ["response_type": "code", "redirect_uri": "https://localhost", "request_uri": "urn:example:x"],
                basic: Self.office)
            #expect(nested.status == .badRequest && nested.error == "invalid_request")
            let otherClient = try await client.postForm(
                PushedAuthorizationEndpoint.path,
                ["client_id": "partner-app", "response_type": "code", "redirect_uri": "https://localhost"],
                basic: Self.office)
            #expect(otherClient.status == .badRequest || otherClient.status == .unauthorized)
            #expect(otherClient.json["request_uri"] == nil)
        }
    }

    @Test(arguments: [
        "authorize: {requirePushedAuthorizationRequests: true}\n",
        "",
    ])
    func aClientThatMustPushIsRefusedWithoutPAR(serverWide: String) async throws {
        let clientWide = ConfigurationBuilder.authorizeFixture.client("office", setting: "requirePushedAuthorizationRequests", to: true)
        let bridge = try await AuthorizeFixture.make(serverWide.isEmpty ? clientWide : clientWide.addingSections(serverWide))
        try await bridge.app.makeApplication().test(.live) { client in
            let plain = try await TestBrowser(client).get("/oauth2/authorize?" + AuthorizeFixture.officeQuery)
            #expect(plain.status == .badRequest && plain.location == nil && plain.body.contains("invalid_request"))
            let pushed = try await client.postForm(PushedAuthorizationEndpoint.path, Self.officePush, basic: Self.office)
            let requestURI = try #require(pushed.json["request_uri"] as? String)
            let page = try await Self.authorize(TestBrowser(client), client: "office", requestURI: requestURI)
            #expect(page.status == .ok && page.formAction != nil)
            let metadata = try await TestBrowser(client).get("/.well-known/oauth-authorization-server")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(metadata.body.utf8)) as? [String: Any])
            #expect(json["pushed_authorization_request_endpoint"] as? String == "https://contoso.com/oauth2/par")
            #expect(json["require_pushed_authorization_requests"] as? Bool == !serverWide.isEmpty)
        }
    }
}
