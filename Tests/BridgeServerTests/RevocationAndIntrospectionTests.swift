import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

@Suite("Revocation (RFC 7009) and introspection (RFC 7662)")
struct RevocationAndIntrospectionTests {
    static let office = ("office", TokenTestClients.officeSecret)

    static func officeTokens(_ bridge: TestBridge, _ client: some TestClientProtocol) async throws -> (String, String) {
        let (code, _) = try await bridge.issueCode()
        let exchange = try await client.redeem(code)
        return (try #require(exchange.accessToken), try #require(exchange.refreshToken))
    }

    @Test func revokingAnAccessTokenStopsTheBootstrapperAcceptingIt() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await bridge.app.makeApplication().test(.live) { client in
            let (access, refresh) = try await Self.officeTokens(bridge, client)
            #expect(try await client.bootstrapStatus(access) == .ok)
            let revoked = try await client.postForm(
                "/oauth2/revoke", ["token": access, "token_type_hint": "access_token"], basic: Self.office)
            #expect(revoked.status == .ok)
            #expect(revoked.response.headers[.cacheControl] == "no-store")
            #expect(try await client.bootstrapStatus(access) == .unauthorized)
            // Only that token: the grant and its refresh token live on.
            let refreshed = try await client.postForm(
                "/oauth2/token", ["grant_type": "refresh_token", "refresh_token": refresh], basic: Self.office)
            #expect(refreshed.status == .ok)
        }
    }

    @Test func revokingARefreshTokenRevokesTheWholeGrant() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await bridge.app.makeApplication().test(.live) { client in
            let (access, refresh) = try await Self.officeTokens(bridge, client)
            let revoked = try await client.postForm(
                "/oauth2/revoke", ["token": refresh, "token_type_hint": "refresh_token"], basic: Self.office)
            #expect(revoked.status == .ok)
            #expect(try await client.bootstrapStatus(access) == .unauthorized)
            let refreshed = try await client.postForm(
                "/oauth2/token", ["grant_type": "refresh_token", "refresh_token": refresh], basic: Self.office)
            #expect(refreshed.error == "invalid_grant")
        }
    }

    @Test func revocationAnswers200ForUnknownAndForeignTokensAndNeedsAClient() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await bridge.app.makeApplication().test(.live) { client in
            let (access, refresh) = try await Self.officeTokens(bridge, client)
            for token in ["unknown-token", "a.b.c", SecretToken().value] {
                #expect(try await client.postForm("/oauth2/revoke", ["token": token], basic: Self.office).status == .ok)
            }
            // The partner app cannot revoke Office's tokens; it is told nothing either way.
            for token in [access, refresh] {
                let foreign = try await client.postForm("/oauth2/revoke", ["token": token, "client_id": "partner-app"])
                #expect(foreign.status == .ok)
            }
            #expect(try await client.bootstrapStatus(access) == .ok)
            let unauthenticated = try await client.postForm("/oauth2/revoke", ["token": access])
            #expect(unauthenticated.status == .unauthorized)
            #expect(unauthenticated.error == "invalid_client")
            #expect(unauthenticated.response.headers[.wwwAuthenticate]?.hasPrefix("Basic ") == true)
            let badSecret = try await client.postForm("/oauth2/revoke", ["token": access], basic: ("office", "wrong"))
            #expect(badSecret.status == .unauthorized)
            let noToken = try await client.postForm("/oauth2/revoke", ["token_type_hint": "access_token"], basic: Self.office)
            #expect(noToken.error == "invalid_request")
            #expect(try await client.bootstrapStatus(access) == .ok)
        }
    }

    @Test func introspectionIsActiveOnlyForTheOwnerAndOnlyWhileUsable() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await bridge.app.makeApplication().test(.live) { client in
            let (access, refresh) = try await Self.officeTokens(bridge, client)
            let active = try await client.postForm("/oauth2/introspect", ["token": access], basic: Self.office)
            #expect(active.status == .ok)
            expectNoStore(active)
            #expect(active.json["active"] as? Bool == true)
            #expect(active.json["client_id"] as? String == "office")
            #expect(active.json["sub"] as? String == "alice")
            #expect(active.json["scope"] as? String == "wopi")
            #expect(active.json["exp"] as? Int == Int(bridge.clock.now.timeIntervalSince1970) + 3600)
            let activeRefresh = try await client.postForm("/oauth2/introspect", ["token": refresh], basic: Self.office)
            #expect(activeRefresh.json["active"] as? Bool == true)

            // Another client learns only active:false, nothing more.
            for token in [access, refresh] {
                let foreign = try await client.postForm("/oauth2/introspect", ["token": token, "client_id": "partner-app"])
                #expect(foreign.status == .ok)
                #expect(foreign.json.keys.sorted() == ["active"])
                #expect(foreign.json["active"] as? Bool == false)
            }
            let unknown = try await client.postForm("/oauth2/introspect", ["token": "nope"], basic: Self.office)
            #expect(unknown.json.keys.sorted() == ["active"])
            #expect(unknown.json["active"] as? Bool == false)

            bridge.clock.advance(by: 3600)  // the access token's lifetime
            let expired = try await client.postForm("/oauth2/introspect", ["token": access], basic: Self.office)
            #expect(expired.json["active"] as? Bool == false)

            _ = try await client.postForm("/oauth2/revoke", ["token": refresh], basic: Self.office)
            let revoked = try await client.postForm("/oauth2/introspect", ["token": refresh], basic: Self.office)
            #expect(revoked.json["active"] as? Bool == false)

            let unauthenticated = try await client.postForm("/oauth2/introspect", ["token": access])
            #expect(unauthenticated.status == .unauthorized)
        }
    }

    @Test func metadataListsTheTokenEndpointsAndOnlyWhatTheyDo() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await bridge.app.makeApplication().test(.live) { client in
            let response = try await client.executeRequest(
                uri: "/.well-known/oauth-authorization-server", method: .get, headers: [:], body: nil)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(json["token_endpoint"] as? String == "https://contoso.com/oauth2/token")
            #expect(json["revocation_endpoint"] as? String == "https://contoso.com/oauth2/revoke")
            #expect(json["introspection_endpoint"] as? String == "https://contoso.com/oauth2/introspect")
            #expect(
                json["grant_types_supported"] as? [String] == [
                    "authorization_code", "refresh_token", "client_credentials",
                    "urn:ietf:params:oauth:grant-type:token-exchange",
                ])
            #expect(json["token_endpoint_auth_methods_supported"] as? [String] == ["client_secret_basic", "client_secret_post", "none"])
            #expect(json["code_challenge_methods_supported"] as? [String] == ["S256"])
            // Every endpoint announced answers a POST here (an unauthenticated one: 401, not 404).
            for key in ["token_endpoint", "revocation_endpoint", "introspection_endpoint"] {
                let url = try #require(json[key] as? String)
                let path = try #require(URL(string: url)?.path)
                let answer = try await client.postForm(path, ["token": "x"])
                #expect(answer.status == .unauthorized, "\(key)")
            }
        }
    }
}
