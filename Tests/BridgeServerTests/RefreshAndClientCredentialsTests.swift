import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

@Suite("Token endpoint: refresh_token and client_credentials")
struct RefreshAndClientCredentialsTests {
    /// A public client's code, redeemed with PKCE: (access, refresh).
    static func partnerTokens(_ bridge: TestBridge, _ client: some TestClientProtocol, scope: String = "wopi") async throws -> (String, String) {
        let verifier = PKCE.Verifier.random()
        let (code, _) = try await bridge.issueCode(
            client: "partner-app", redirectURI: TokenTestClients.partnerRedirect, verifier: verifier, scope: scope)
        let exchange = try await client.postForm(
            "/oauth2/token",
            ["grant_type": "authorization_code", "code": code, "redirect_uri": TokenTestClients.partnerRedirect,
             "client_id": "partner-app", "code_verifier": verifier.value])
        return (try #require(exchange.accessToken), try #require(exchange.refreshToken))
    }

    static func refresh(_ client: some TestClientProtocol, _ token: String, scope: String? = nil) async throws -> OAuthExchange {
        if let scope {
            return try await client.postForm(
                "/oauth2/token", ["grant_type": "refresh_token", "refresh_token": token, "client_id": "partner-app", "scope": scope])
        }
        return try await client.postForm(
            "/oauth2/token", ["grant_type": "refresh_token", "refresh_token": token, "client_id": "partner-app"])
    }

    @Test func refreshRotatesAndReusingARotatedTokenRevokesTheGrant() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await bridge.app.makeApplication().test(.live) { client in
            let (firstAccess, first) = try await Self.partnerTokens(bridge, client)
            bridge.clock.advance(by: 10)
            let rotated = try await Self.refresh(client, first)
            #expect(rotated.status == .ok)
            expectNoStore(rotated)
            let second = try #require(rotated.refreshToken)
            let secondAccess = try #require(rotated.accessToken)
            #expect(second != first)
            #expect(try await client.bootstrapStatus(secondAccess) == .ok)
            // Replay of the rotated token: refused, and the whole grant goes.
            let replay = try await Self.refresh(client, first)
            #expect(replay.status == .badRequest)
            #expect(replay.error == "invalid_grant")
            #expect(try await Self.refresh(client, second).error == "invalid_grant")
            #expect(try await client.bootstrapStatus(secondAccess) == .unauthorized)
            #expect(try await client.bootstrapStatus(firstAccess) == .unauthorized)
        }
    }

    @Test func refreshCanOnlyNarrowTheScopeAndKeepsTheRefreshTokensScope() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await bridge.app.makeApplication().test(.live) { client in
            let (_, first) = try await Self.partnerTokens(bridge, client, scope: "wopi files")
            let wider = try await Self.refresh(client, first, scope: "wopi admin")
            #expect(wider.error == "invalid_scope")
            let narrower = try await Self.refresh(client, first, scope: "files")
            #expect(narrower.status == .ok)
            #expect(narrower.json["scope"] as? String == "files")
            // The new refresh token still carries the whole grant (RFC 6749 §6).
            let back = try await Self.refresh(client, try #require(narrower.refreshToken), scope: "wopi files")
            #expect(back.status == .ok)
            #expect(back.json["scope"] as? String == "wopi files")
        }
    }

    @Test func anotherClientsRefreshTokenIsRefusedAndLeftUsable() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await bridge.app.makeApplication().test(.live) { client in
            let (_, partnerRefresh) = try await Self.partnerTokens(bridge, client)
            let byOffice = try await client.postForm(
                "/oauth2/token", ["grant_type": "refresh_token", "refresh_token": partnerRefresh],
                basic: ("office", TokenTestClients.officeSecret))
            #expect(byOffice.error == "invalid_grant")
            #expect(try await Self.refresh(client, partnerRefresh).status == .ok)
            #expect(try await Self.refresh(client, "never-issued").error == "invalid_grant")
        }
    }

    @Test func clientCredentialsGivesAConfidentialClientAUserlessToken() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await bridge.app.makeApplication().test(.live) { client in
            let trips = bridge.store.roundTrips
            let exchange = try await client.postForm(
                "/oauth2/token", ["grant_type": "client_credentials", "scope": "reports"],
                basic: ("backend", TokenTestClients.backendSecret))
            #expect(exchange.status == .ok)
            // One store step: the grant and its access token.
            #expect(bridge.store.roundTrips - trips == 1)
            expectNoStore(exchange)
            #expect(exchange.refreshToken == nil)  // RFC 6749 §4.4.3
            #expect(exchange.json["scope"] as? String == "reports")
            let token = try #require(exchange.accessToken)
            // There is no user behind it, so the bootstrapper refuses it.
            #expect(try await client.bootstrapStatus(token) == .unauthorized)
            let introspection = try await client.postForm(
                "/oauth2/introspect", ["token": token], basic: ("backend", TokenTestClients.backendSecret))
            #expect(introspection.json["active"] as? Bool == true)
            #expect(introspection.json["sub"] as? String == "backend")
            // A public client may not use it.
            let byPublic = try await client.postForm(
                "/oauth2/token", ["grant_type": "client_credentials", "client_id": "partner-app"])
            #expect(byPublic.error == "unauthorized_client")
        }
    }
}
