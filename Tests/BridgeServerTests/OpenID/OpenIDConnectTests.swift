import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import SignInProtocol
import Testing

@testable import BridgeServer

/// OpenID Connect Core (Basic profile) over real sockets: the ID token of a code flow, UserInfo, discovery, nonce
/// rules and RP-initiated logout.
@Suite("OpenID Connect over the wire")
struct OpenIDConnectTests {
    static let nonce = "n-0S6_WzA2Mj"

    /// RS256 unless the client registered ES256 (OpenID Connect Dynamic Client Registration §2, Core §15.1).
    @Test(arguments: [nil, "RS256", "ES256"])
    func anOpenIDCodeYieldsAnIDTokenWithEveryRequiredClaim(registered: String?) async throws {
        let bridge = try await OpenIDFixture.make(hostAppAlgorithm: registered)
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let signInTime = bridge.clock.now
            let done = try await OpenIDFixture.signedInRedirect(browser, query: OpenIDFixture.query())
            let exchange = try await OpenIDFixture.redeem(client, code: try done.redirectCode())
            #expect(exchange.status == .ok)
            let idToken = try #require(exchange.json["id_token"] as? String)
            let access = try #require(exchange.accessToken)
            let header = try JSONSerialization.jsonObject(
                with: Data(try #require(Base64URL.decode(String(idToken.split(separator: ".")[0]))))) as? [String: String]
            #expect(header?["alg"] == (registered ?? "RS256"))
            #expect(header?["typ"] == "JWT")
            let keys = bridge.app.keys
            #expect(header?["kid"] == (registered == "ES256" ? keys.signingKey.kid : keys.rsaSigningKey.kid))
            let claims = try await bridge.app.keys.collection.verify(idToken, as: IDTokenClaims.self)
            #expect(claims.iss == "https://contoso.com")
            #expect(claims.sub == "alice")
            #expect(claims.aud == "host-app")
            #expect(claims.azp == "host-app")
            #expect(claims.nonce == Self.nonce)
            #expect(claims.auth_time == Int64(signInTime.timeIntervalSince1970))
            #expect(claims.iat == Int64(bridge.clock.now.timeIntervalSince1970))
            #expect(claims.exp == Int64(bridge.clock.now.timeIntervalSince1970) + 3600)
            // OpenID Connect Core §3.1.3.6: base64url of the left half of SHA-256 of the access token.
            #expect(claims.at_hash == IDTokenIssuer.atHash(access))
        }
    }

    @Test func atHashMatchesTheSpecificationsExample() {
        // OpenID Connect Core Appendix A: the examples' access token and the at_hash their ID tokens carry for it.
        #expect(IDTokenIssuer.atHash("jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y") == "77QmUPtjPfzWtF2AnpK9RQ")
    }

    @Test func aCodeWithoutOpenIDYieldsNoIDTokenAndNoNonceIsKept() async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let done = try await OpenIDFixture.signedInRedirect(browser, query: OpenIDFixture.query(scope: "wopi"))
            let exchange = try await OpenIDFixture.redeem(client, code: try done.redirectCode())
            #expect(exchange.status == .ok)
            #expect(exchange.json["id_token"] == nil)
        }
    }

    @Test func aClientThatRequiresANonceIsRefusedWithoutOne() async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let refused = try await browser.get(
                "/oauth2/authorize?"
                    + OpenIDFixture.query(client: "merchant-app", redirect: "com.example.merchant:/oauth2redirect", nonce: nil))
            #expect(refused.status == .found)
            let parameters = try refused.redirectParameters()
            #expect(parameters["error"] == "invalid_request")
            #expect(parameters["error_description"] == "nonce is required for client 'merchant-app'")
            #expect(parameters["state"] == "st-1")
            let tooLong = try await browser.get(
                "/oauth2/authorize?" + OpenIDFixture.query(nonce: String(repeating: "n", count: 256)))
            #expect(try tooLong.redirectParameters()["error"] == "invalid_request")
        }
    }

    @Test func userInfoAnswersGETAndPOSTWithTheClaimsOfTheScope() async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let done = try await OpenIDFixture.signedInRedirect(browser, query: OpenIDFixture.query(scope: "openid email"))
            let access = try #require(try await OpenIDFixture.redeem(client, code: try done.redirectCode()).accessToken)
            for method in [HTTPRequest.Method.get, .post] {
                let response = try await client.executeRequest(
                    uri: "/userinfo", method: method, headers: [.authorization: "Bearer \(access)"], body: nil)
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "no-store")
                let claims = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: String]
                #expect(claims == ["sub": "alice", "email": "alice@contoso.com"])
            }
        }
    }

    @Test func userInfoAnswersWithRFC6750Challenges() async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let bare = try await client.executeRequest(uri: "/userinfo", method: .get, headers: [:], body: nil)
            #expect(bare.status == .unauthorized)
            // UserInfo takes DPoP tokens too, so its 401s offer that scheme beside Bearer (RFC 9449 §7.1).
            let dpop = #"DPoP realm="https://contoso.com", algs="ES256 RS256 PS256 ES384 EdDSA""#
            #expect(bare.headers[values: .wwwAuthenticate] == [#"Bearer realm="https://contoso.com""#, dpop])
            let bad = try await client.executeRequest(
                uri: "/userinfo", method: .get, headers: [.authorization: "Bearer abc.def.ghi"], body: nil)
            #expect(bad.status == .unauthorized)
            let invalid = #"error="invalid_token", error_description="the access token is invalid""#
            #expect(bad.headers[values: .wwwAuthenticate] == [#"Bearer realm="https://contoso.com", "# + invalid, dpop + ", " + invalid])
            // A token without openid (a plain OAuth grant) is not for UserInfo.
            let wopiOnly = try await bridge.issueToken(user: "alice", client: "host-app")
            let forbidden = try await client.executeRequest(
                uri: "/userinfo", method: .get, headers: [.authorization: "Bearer \(wopiOnly.token)"], body: nil)
            #expect(forbidden.status == .forbidden)
            #expect(forbidden.headers[.wwwAuthenticate]?.contains(#"error="insufficient_scope""#) == true)
        }
    }

    @Test func discoveryIsTheRFC8414DocumentWithTheOpenIDMembers() async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let openid = try await client.executeRequest(
                uri: "/.well-known/openid-configuration", method: .get, headers: [:], body: nil)
            let oauth = try await client.executeRequest(
                uri: "/.well-known/oauth-authorization-server", method: .get, headers: [:], body: nil)
            #expect(openid.status == .ok)
            #expect(String(buffer: openid.body) == String(buffer: oauth.body))
            let document = try #require(try JSONSerialization.jsonObject(with: Data(buffer: openid.body)) as? [String: Any])
            #expect(document["issuer"] as? String == "https://contoso.com")
            #expect(document["userinfo_endpoint"] as? String == "https://contoso.com/userinfo")
            #expect(document["end_session_endpoint"] as? String == "https://contoso.com/oauth2/logout")
            // Discovery §3: "The algorithm RS256 MUST be included".
            #expect(document["id_token_signing_alg_values_supported"] as? [String] == ["RS256", "ES256"])
            #expect(document["subject_types_supported"] as? [String] == ["public"])
            #expect(document["grant_types_supported"] as? [String] == GrantRegistry.grantTypes)
            #expect(document["prompt_values_supported"] as? [String] == ["consent", "login", "none", "select_account"])
            let claims = try #require(document["claims_supported"] as? [String])
            for claim in ["sub", "auth_time", "nonce", "email", "name", "phone_number"] { #expect(claims.contains(claim)) }
            #expect((document["scopes_supported"] as? [String])?.starts(with: ["openid", "profile", "email", "phone"]) == true)
        }
    }

    @Test func logoutWithAHintEndsTheSessionAndGoesToTheRegisteredURIWithState() async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let done = try await OpenIDFixture.signedInRedirect(browser, query: OpenIDFixture.query())
            let idToken = try #require(
                try await OpenIDFixture.redeem(client, code: try done.redirectCode()).json["id_token"] as? String)
            func logout(_ parameters: [(String, String)]) async throws -> TestBrowser.Page {
                var form = FormParameters()
                for (name, value) in parameters { form.append(name, value) }
                return try await browser.get("/oauth2/logout?" + form.encoded)
            }
            let unregistered = try await logout([
                ("id_token_hint", idToken), ("post_logout_redirect_uri", "com.contoso.files:/elsewhere"),
            ])
            #expect(unregistered.status == .badRequest)
            #expect(unregistered.body.contains("You are still signed in."))
            let forged = try await logout([("id_token_hint", idToken + "x")])
            #expect(forged.status == .badRequest)
            let otherClient = try await logout([("id_token_hint", idToken), ("client_id", "other-app")])
            #expect(otherClient.status == .badRequest)
            // Still signed in: prompt=none finishes at once.
            let silent = try await browser.get("/oauth2/authorize?" + OpenIDFixture.query(extra: [("prompt", "none")]))
            #expect(try silent.redirectParameters()["code"] != nil)
            let out = try await logout([
                ("id_token_hint", idToken), ("post_logout_redirect_uri", "com.contoso.files:/signed-out"), ("state", "bye"),
            ])
            #expect(out.status == .found)
            #expect(out.location == "com.contoso.files:/signed-out?state=bye")
            let after = try await browser.get("/oauth2/authorize?" + OpenIDFixture.query(extra: [("prompt", "none")]))
            #expect(try after.redirectParameters()["error"] == "login_required")
            // Without a redirect URI: a page that says so.
            let page = try await logout([])
            #expect(page.status == .ok)
            #expect(page.body.contains("You are signed out."))
        }
    }

    @Test func maxAgeAskedAgainAfterTheSignInAgesAndAuthTimeReportsTheNewSignIn() async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            _ = try await OpenIDFixture.signedInRedirect(browser, query: OpenIDFixture.query())
            bridge.clock.advance(by: 120)
            let again = try await browser.get("/oauth2/authorize?" + OpenIDFixture.query(extra: [("max_age", "60")]))
            #expect(again.status == .ok)
            #expect(again.body.contains("name=\"password\""))
            let signInTime = bridge.clock.now
            let afterSignIn = try await browser.signIn(on: again)
            let done = try await browser.get(try #require(afterSignIn.location))
            let idToken = try #require(
                try await OpenIDFixture.redeem(client, code: try done.redirectCode()).json["id_token"] as? String)
            let claims = try await bridge.app.keys.collection.verify(idToken, as: IDTokenClaims.self)
            #expect(claims.auth_time == Int64(signInTime.timeIntervalSince1970))
        }
    }
}
