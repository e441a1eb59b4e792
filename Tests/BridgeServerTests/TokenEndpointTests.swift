import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import SignInProtocol
import Testing

/// `/oauth2/token` with `authorization_code` over a real socket, including the OpenID conformance suite's negative
/// cases. Codes come straight from the store, as the authorize endpoint issues them.
@Suite("Token endpoint: authorization code")
struct TokenEndpointTests {
    @Test func officeRedeemsACodeAndCallsTheBootstrapperWithTheToken() async throws {
        let bridge = try await TestBridge.makeForTokens()
        let (code, grant) = try await bridge.issueCode()
        try await bridge.app.makeApplication().test(.live) { client in
            let exchange = try await client.redeem(code)
            #expect(exchange.status == .ok)
            expectNoStore(exchange)
            let json = exchange.json
            #expect(json["token_type"] as? String == "Bearer")
            // A JSON number, not a string (Microsoft's Office app-to-app docs), and the configured lifetime.
            #expect(String(decoding: exchange.response.body.readableBytesView, as: UTF8.self).contains(#""expires_in":3600"#))
            #expect(json["scope"] as? String == "wopi")
            let refresh = try #require(exchange.refreshToken)
            #expect(refresh.utf8.count == 43)  // 256 random bits, base64url
            let token = try #require(exchange.accessToken)
            // ES256 with a kid that the JWKS publishes.
            let header = try #require(Data(base64URL: String(token.split(separator: ".")[0])))
            let headerJSON = try #require(try JSONSerialization.jsonObject(with: header) as? [String: Any])
            #expect(headerJSON["alg"] as? String == "ES256")
            #expect(headerJSON["kid"] as? String == bridge.app.keys.signingKey.kid)
            #expect(try await client.bootstrapStatus(token) == .ok)
            // The refresh token is stored as a digest only.
            guard case .active(let record, _) = try await bridge.store.refreshTokenStatus(TokenDigest(of: refresh), at: bridge.clock.now)
            else { Issue.record("refresh token not stored"); return }
            #expect(record.grantID == grant.id)
        }
    }

    @Test func clientSecretPostWorksAndTwoMethodsAtOnceIsInvalidRequest() async throws {
        let bridge = try await TestBridge.makeForTokens()
        let (code, _) = try await bridge.issueCode()
        let (second, _) = try await bridge.issueCode()
        try await bridge.app.makeApplication().test(.live) { client in
            let both = try await client.postForm(
                "/oauth2/token",
                ["grant_type": "authorization_code", "code": second, "redirect_uri": "https://localhost",
                 "client_id": "office", "client_secret": TokenTestClients.officeSecret],
                basic: ("office", TokenTestClients.officeSecret))
            #expect(both.status == .badRequest)
            #expect(both.error == "invalid_request")
            let post = try await client.postForm(
                "/oauth2/token",
                ["grant_type": "authorization_code", "code": code, "redirect_uri": "https://localhost",
                 "client_id": "office", "client_secret": TokenTestClients.officeSecret])
            #expect(post.status == .ok)
            #expect(post.accessToken != nil)
        }
    }

    @Test func badClientCredentialsGet401WithABasicChallenge() async throws {
        let bridge = try await TestBridge.makeForTokens()
        let (code, _) = try await bridge.issueCode()
        try await bridge.app.makeApplication().test(.live) { client in
            let attempts: [(String, OAuthExchange)] = [
                ("wrong secret", try await client.redeem(code, basic: ("office", "not-the-secret"))),
                ("unknown client", try await client.redeem(code, basic: ("mallory", "x"))),
                ("no credentials", try await client.redeem(code, basic: nil)),
                ("public client with a secret", try await client.redeem(code, basic: ("partner-app", "x"))),
            ]
            for (what, exchange) in attempts {
                #expect(exchange.status == .unauthorized, "\(what)")
                #expect(exchange.error == "invalid_client", "\(what)")
                #expect(exchange.response.headers[.wwwAuthenticate]?.hasPrefix(#"Basic realm="https://contoso.com""#) == true, "\(what)")
                expectNoStore(exchange, "\(what)")
            }
            // None of those touched the code.
            #expect(try await client.redeem(code).status == .ok)
        }
    }

    @Test func secondRedemptionFailsAndRevokesTheTokensOfTheFirst() async throws {
        for delay in [0.0, 30.0] {
            let bridge = try await TestBridge.makeForTokens()
            let (code, _) = try await bridge.issueCode()
            try await bridge.app.makeApplication().test(.live) { client in
                let first = try await client.redeem(code)
                let access = try #require(first.accessToken)
                let refresh = try #require(first.refreshToken)
                #expect(try await client.bootstrapStatus(access) == .ok)
                bridge.clock.advance(by: delay)
                let second = try await client.redeem(code)
                #expect(second.status == .badRequest, "after \(delay) s")
                #expect(second.error == "invalid_grant", "after \(delay) s")
                #expect(second.accessToken == nil)
                // RFC 9700 §4.2.4: everything issued from the first redemption is now revoked.
                #expect(try await client.bootstrapStatus(access) == .unauthorized, "after \(delay) s")
                let refreshed = try await client.postForm(
                    "/oauth2/token", ["grant_type": "refresh_token", "refresh_token": refresh],
                    basic: ("office", TokenTestClients.officeSecret))
                #expect(refreshed.error == "invalid_grant", "after \(delay) s")
            }
        }
    }

    @Test func codeExpiresAfterItsSixtySeconds() async throws {
        let bridge = try await TestBridge.makeForTokens()
        let (late, _) = try await bridge.issueCode()
        let (onTime, _) = try await bridge.issueCode()
        try await bridge.app.makeApplication().test(.live) { client in
            bridge.clock.advance(by: 59)
            #expect(try await client.redeem(onTime).status == .ok)
            bridge.clock.advance(by: 2)  // 61 s after issue
            let expired = try await client.redeem(late)
            #expect(expired.status == .badRequest)
            #expect(expired.error == "invalid_grant")
        }
    }

    @Test func wrongRedirectURIOrClientIsInvalidGrant() async throws {
        let bridge = try await TestBridge.makeForTokens()
        let (trailingSlash, _) = try await bridge.issueCode()
        let (missing, _) = try await bridge.issueCode()
        let verifier = PKCE.Verifier.random()
        let (partnerCode, _) = try await bridge.issueCode(
            client: "partner-app", redirectURI: TokenTestClients.partnerRedirect, verifier: verifier)
        try await bridge.app.makeApplication().test(.live) { client in
            let wrong = try await client.redeem(trailingSlash, redirectURI: "https://localhost/")
            #expect(wrong.error == "invalid_grant")
            let none = try await client.postForm(
                "/oauth2/token", ["grant_type": "authorization_code", "code": missing],
                basic: ("office", TokenTestClients.officeSecret))
            #expect(none.error == "invalid_request")
            // Office presenting the partner app's code, with the right verifier and redirect even.
            let stolen = try await client.redeem(
                partnerCode, redirectURI: TokenTestClients.partnerRedirect, verifier: verifier.value)
            #expect(stolen.status == .badRequest)
            #expect(stolen.error == "invalid_grant")
        }
    }

    @Test func pkceMissingWrongAndDowngradedVerifiersAreInvalidGrant() async throws {
        let bridge = try await TestBridge.makeForTokens()
        let verifier = PKCE.Verifier.random()
        let public_ = ("partner-app", TokenTestClients.partnerRedirect)
        let (missing, _) = try await bridge.issueCode(client: public_.0, redirectURI: public_.1, verifier: verifier)
        let (wrong, _) = try await bridge.issueCode(client: public_.0, redirectURI: public_.1, verifier: verifier)
        let (right, _) = try await bridge.issueCode(client: public_.0, redirectURI: public_.1, verifier: verifier)
        let (downgraded, _) = try await bridge.issueCode()  // Office's code, issued without a challenge
        try await bridge.app.makeApplication().test(.live) { client in
            func redeemPublic(_ code: String, _ verifier: String?) async throws -> OAuthExchange {
                var form: KeyValuePairs<String, String> = [
                    "grant_type": "authorization_code", "code": code, "redirect_uri": public_.1, "client_id": public_.0,
                ]
                if let verifier {
                    form = [
                        "grant_type": "authorization_code", "code": code, "redirect_uri": public_.1,
                        "client_id": public_.0, "code_verifier": verifier,
                    ]
                }
                return try await client.postForm("/oauth2/token", form)
            }
            #expect(try await redeemPublic(missing, nil).error == "invalid_grant")
            #expect(try await redeemPublic(wrong, PKCE.Verifier.random().value).error == "invalid_grant")
            let ok = try await redeemPublic(right, verifier.value)
            #expect(ok.status == .ok)
            #expect(ok.refreshToken != nil)
            // RFC 9700 §4.8.2: a verifier for a code issued without a challenge.
            let downgrade = try await client.redeem(downgraded, verifier: PKCE.Verifier.random().value)
            #expect(downgrade.status == .badRequest)
            #expect(downgrade.error == "invalid_grant")
        }
    }

    @Test func grantTypesNotImplementedOrNotAllowedAreRefusedByName() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await bridge.app.makeApplication().test(.live) { client in
            let office = ("office", TokenTestClients.officeSecret)
            let password = try await client.postForm(
                "/oauth2/token", ["grant_type": "password", "username": "alice@contoso.com", "password": "x"], basic: office)
            #expect(password.error == "unsupported_grant_type")
            #expect(password.status == .badRequest)
            let made_up = try await client.postForm("/oauth2/token", ["grant_type": "urn:example:magic"], basic: office)
            #expect(made_up.error == "unsupported_grant_type")
            let notAllowed = try await client.postForm("/oauth2/token", ["grant_type": "client_credentials"], basic: office)
            #expect(notAllowed.error == "unauthorized_client")
            let missing = try await client.postForm("/oauth2/token", ["code": "x"], basic: office)
            #expect(missing.error == "invalid_request")
            let json = try await client.executeRequest(
                uri: "/oauth2/token", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"grant_type":"authorization_code"}"#))
            #expect(json.status == .badRequest)
            let badEscape = try await client.executeRequest(
                uri: "/oauth2/token", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "grant_type=%zz"))
            #expect(badEscape.status == .badRequest)
            let repeated = try await client.postForm(
                "/oauth2/token", ["grant_type": "authorization_code", "code": "a", "code": "b"], basic: office)
            #expect(repeated.error == "invalid_request")
        }
    }

    @Test func theTkURLAndTheChallengesTokenURLReachTheSameEndpoint() async throws {
        let bridge = try await TestBridge.makeForTokens()
        let (viaTk, grant) = try await bridge.issueCode()
        let (viaChallenge, _) = try await bridge.issueCode()
        try await bridge.app.makeApplication().test(.live) { client in
            // Office posts to the tk URL as given, query and all (Microsoft's Office app-to-app docs).
            let tk = try await client.redeem(
                viaTk, path: "/api/token/?extra=stuff", headers: [HTTPField.Name("X-WOPI-SessionContext")!: "sc-from-redirect"])
            #expect(tk.status == .ok)
            let refreshed = try await client.postForm(
                "/api/token/?extra=stuff", ["grant_type": "refresh_token", "refresh_token": try #require(tk.refreshToken)],
                basic: ("office", TokenTestClients.officeSecret))
            #expect(refreshed.status == .ok)
            #expect(try await client.redeem(viaChallenge, path: "/api/oauth2/token").status == .ok)
            // X-WOPI-SessionContext is recorded with the grant.
            #expect(try await bridge.store.grant(id: grant.id)?.sessionContext == "sc-from-redirect")
        }
    }
}
