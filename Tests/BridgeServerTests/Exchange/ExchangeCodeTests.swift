import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SignInProtocol
import Testing

/// `POST /oauth/exchange` with `type=code`, redeemed at the token endpoint, over a real socket.
@Suite("Exchange codes: type=code")
struct ExchangeCodeTests {
    @Test func theTargetBackendRedeemsTheCodeOnceWithItsOwnCredentials() async throws {
        let bridge = try await ExchangeFixture.make()
        let user = try await bridge.issueToken(user: "alice", client: "contoso-app")
        try await bridge.app.makeApplication().test(.live) { client in
            let issued = try await client.exchange(user.token, clientId: "contoso-backend", type: "code")
            #expect(issued.status == .ok)
            expectNoStore(issued)
            let response = try ExchangeResponse.decode(json: String(buffer: issued.response.body))
            #expect(response.type == .code)
            #expect(response.expiresIn == 30)
            // Stored hashed: the store knows the digest, never the code.
            let redeemed = try await client.redeemExchangeCode(response.code, as: "contoso-backend")
            #expect(redeemed.status == .ok)
            let access = try #require(redeemed.accessToken)
            let introspection = try await client.introspect(access, as: "contoso-backend")
            #expect(introspection["active"] as? Bool == true)
            #expect(introspection["sub"] as? String == "alice")
            #expect(introspection["client_id"] as? String == "contoso-backend")

            let replay = try await client.redeemExchangeCode(response.code, as: "contoso-backend")
            #expect(replay.status == .badRequest)
            #expect(replay.error == "invalid_grant")
            // RFC 9700 §4.2.4: the replay revoked what the first redemption issued.
            #expect(try await client.introspect(access, as: "contoso-backend")["active"] as? Bool == false)
        }
    }

    @Test func theTokenMayTravelInTheOauthTokenFieldButNotInBothPlaces() async throws {
        let bridge = try await ExchangeFixture.make()
        let user = try await bridge.issueToken(user: "alice", client: "contoso-app")
        try await bridge.app.makeApplication().test(.live) { client in
            let field = try await client.postForm(
                "/oauth/exchange", ["clientId": "contoso-backend", "type": "code", "oauth_token": user.token])
            #expect(field.status == .ok)
            #expect(field.json["code"] as? String != nil)
            let both = try await client.postForm(
                "/oauth/exchange", ["clientId": "contoso-backend", "type": "code", "oauth_token": user.token],
                headers: [.authorization: "Bearer \(user.token)"])
            #expect(both.status == .badRequest)
            #expect(both.error == "invalid_request")
            let badType = try await client.exchange(user.token, clientId: "contoso-backend", type: "cookie")
            #expect(badType.error == "invalid_request")
        }
    }

    @Test func aTargetOutsideTheCallersMerchantIsABadRequestNotA401() async throws {
        let bridge = try await ExchangeFixture.make()
        let user = try await bridge.issueToken(user: "alice", client: "contoso-app")
        let office = try await bridge.issueToken(user: "alice", client: "office")
        try await bridge.app.makeApplication().test(.live) { client in
            for (token, target) in [
                (user.token, "fabrikam-backend"), (user.token, "no-such-client"),
                // A caller without a merchant has no siblings.
                (office.token, "contoso-backend"),
            ] {
                let refused = try await client.exchange(token, clientId: target, type: "code")
                // RFC 6750 §3.1: the caller's token was good, so the answer is about the request: 400
                // invalid_request, in the body and the Bearer challenge; never the 401 and Basic challenge that made
                // SDKs drop a good token.
                #expect(refused.status == .badRequest, "\(target)")
                #expect(refused.error == "invalid_request", "\(target)")
                #expect(
                    refused.response.headers[.wwwAuthenticate]
                        == #"Bearer realm="https://contoso.com", error="invalid_request", error_description="clientId is not a client of the caller's merchant""#)
                #expect(refused.json["code"] == nil)
            }
        }
    }

    @Test func aCodeRedeemedByAnotherClientIsRefusedAndBurnt() async throws {
        let bridge = try await ExchangeFixture.make()
        let user = try await bridge.issueToken(user: "alice", client: "contoso-app")
        try await bridge.app.makeApplication().test(.live) { client in
            let code = try #require(try await client.exchange(user.token, clientId: "contoso-backend", type: "code").json["code"] as? String)
            let wrong = try await client.redeemExchangeCode(code, as: "fabrikam-backend")
            #expect(wrong.error == "invalid_grant")
            #expect(wrong.accessToken == nil)
            // Single use: the attempt consumed it.
            #expect(try await client.redeemExchangeCode(code, as: "contoso-backend").error == "invalid_grant")
        }
    }

    @Test func aCodeExpiresAfterThirtySecondsOrTheConfiguredLifetime() async throws {
        let bridge = try await ExchangeFixture.make()
        let user = try await bridge.issueToken(user: "alice", client: "contoso-app")
        try await bridge.app.makeApplication().test(.live) { client in
            let code = try #require(try await client.exchange(user.token, clientId: "contoso-backend", type: "code").json["code"] as? String)
            bridge.clock.advance(by: 30)
            let late = try await client.redeemExchangeCode(code, as: "contoso-backend")
            #expect(late.error == "invalid_grant")
            #expect(late.json["error_description"] as? String == "the code has expired")
        }
        let configured = try await ExchangeFixture.make(exchange: "exchange: {codeLifetimeSeconds: 10}")
        let token = try await configured.issueToken(user: "alice", client: "contoso-app")
        try await configured.app.makeApplication().test(.live) { client in
            let issued = try await client.exchange(token.token, clientId: "contoso-backend", type: "code")
            #expect(issued.json["expires_in"] as? Int == 10)
            let code = try #require(issued.json["code"] as? String)
            configured.clock.advance(by: 9)
            #expect(try await client.redeemExchangeCode(code, as: "contoso-backend").status == .ok)
        }
    }

    @Test func aBadTokenIsABearerInvalidTokenAndAPublicTargetCannotRedeem() async throws {
        let bridge = try await ExchangeFixture.make()
        let user = try await bridge.issueToken(user: "alice", client: "contoso-app")
        try await bridge.app.makeApplication().test(.live) { client in
            // A public client has no credentials to redeem with.
            let publicTarget = try await client.exchange(user.token, clientId: "contoso-web", type: "code")
            #expect(publicTarget.error == "unauthorized_client")
            let forged = try await client.exchange(user.token + "x", clientId: "contoso-backend", type: "code")
            #expect(forged.status == .unauthorized)
            #expect(forged.error == "invalid_token")
            #expect(
                forged.response.headers[values: .wwwAuthenticate].first
                    == #"Bearer realm="https://contoso.com", error="invalid_token", error_description="the access token is invalid""#)
            bridge.clock.advance(by: 3600)
            #expect(try await client.exchange(user.token, clientId: "contoso-backend", type: "code").error == "invalid_token")
        }
    }

    /// RFC 6750 §3, the credential judged first: no token, an empty `oauth_token`, a blank bearer header or another
    /// scheme (§3.1: no authentication) get 401 with the bare challenge, whatever the parameters; a forged token gets
    /// `invalid_token` even with a bad `clientId`; a token sent two ways is `invalid_request`.
    @Test func theCredentialIsJudgedBeforeTheParameters() async throws {
        let bridge = try await ExchangeFixture.make()
        let user = try await bridge.issueToken(user: "alice", client: "contoso-app")
        try await bridge.app.makeApplication().test(.live) { client in
            let bare = #"Bearer realm="https://contoso.com""#
            let noCredential: [(KeyValuePairs<String, String>, HTTPFields)] = [
                (["clientId": "contoso-backend", "type": "code"], [:]),
                (["clientId": "contoso-backend", "type": "code", "oauth_token": ""], [:]),
                (["clientId": "no-such-client", "type": "nonsense"], [.authorization: "Bearer "]),
                (["clientId": "contoso-backend", "type": "code"], [.authorization: "Basic YWxpY2U6c2VjcmV0"]),
            ]
            for (form, headers) in noCredential {
                let answer = try await client.postForm("/oauth/exchange", form, headers: headers)
                #expect(answer.status == .unauthorized, "\(form) \(headers)")
                // The exchange endpoint takes DPoP tokens too: its 401s offer that scheme second (RFC 9449 §7.1).
                #expect(answer.response.headers[values: .wwwAuthenticate].first == bare, "\(form) \(headers)")
                #expect(answer.response.headers[values: .wwwAuthenticate].count == 2, "\(form) \(headers)")
                #expect(answer.json["error"] == nil, "\(form) \(headers)")
            }
            let forged = try await client.exchange(user.token + "x", clientId: "no-such-client", type: "code")
            #expect(forged.status == .unauthorized && forged.error == "invalid_token")
            let twice = try await client.postForm(
                "/oauth/exchange", ["clientId": "contoso-backend", "type": "code", "oauth_token": user.token],
                headers: [.authorization: "Bearer \(user.token)"])
            #expect(twice.status == .badRequest && twice.error == "invalid_request")
            // The same token in the form field alone is accepted (SPiD's SDKs send it there).
            let inForm = try await client.postForm(
                "/oauth/exchange", ["clientId": "contoso-backend", "type": "code", "oauth_token": user.token])
            #expect(inForm.status == .ok, "\(inForm.json)")
        }
    }

    /// RFC 6750 §3.1, whatever the body's type: a JSON body (not this endpoint's form) with a forged bearer token is
    /// `invalid_token` (401), with no credential the bare challenge; only with a good token is the body refused.
    @Test func theCredentialIsJudgedBeforeABodyOfAnotherType() async throws {
        let bridge = try await ExchangeFixture.make()
        let user = try await bridge.issueToken(user: "alice", client: "contoso-app")
        try await bridge.app.makeApplication().test(.live) { client in
            func post(_ authorization: String?) async throws -> OAuthExchange {
                var headers: HTTPFields = [.contentType: "application/json"]
                if let authorization { headers[.authorization] = authorization }
                let response = try await client.executeRequest(
                    uri: "/oauth/exchange", method: .post, headers: headers,
                    body: ByteBuffer(string: #"{"clientId":"contoso-backend","type":"code"}"#))
                return OAuthExchange(response: response)
            }
            let forged = try await post("Bearer \(user.token)x")
            #expect(forged.status == .unauthorized)
            #expect(forged.error == "invalid_token")
            let none = try await post(nil)
            #expect(none.status == .unauthorized)
            #expect(none.response.headers[values: .wwwAuthenticate].first == #"Bearer realm="https://contoso.com""#)
            #expect(none.json["error"] == nil)
            let good = try await post("Bearer \(user.token)")
            #expect(good.status == .badRequest)
            #expect(good.error == "invalid_request")
        }
    }
}
