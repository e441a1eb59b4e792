import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SignInProtocol
import Testing

/// RFC 8693 token exchange at the token endpoint, over a real socket.
@Suite("Token exchange (RFC 8693)")
struct TokenExchangeTests {
    static func exchange(
        _ client: some TestClientProtocol, subject: String, as requester: String = "contoso-exchanger",
        extra: [(String, String)] = [], subjectType: String = ExchangeFixture.accessTokenType
    ) async throws -> OAuthExchange {
        var form = FormParameters()
        form.append("grant_type", ExchangeFixture.tokenExchange)
        form.append("subject_token", subject)
        form.append("subject_token_type", subjectType)
        for (name, value) in extra { form.append(name, value) }
        return try await client.postEncodedForm(form.encoded, basic: (requester, ExchangeFixture.secret))
    }

    @Test func anAccessTokenOfTheSameMerchantIsExchangedForTheAudience() async throws {
        let bridge = try await ExchangeFixture.make()
        let user = try await bridge.issueToken(user: "alice", client: "contoso-app")
        try await bridge.app.makeApplication().test(.live) { client in
            let trips = bridge.store.roundTrips
            let exchanged = try await Self.exchange(client, subject: user.token, extra: [("audience", "contoso-backend")])
            #expect(exchanged.status == .ok)
            // The subject token's status (a read), then one step: the new grant and its access token.
            #expect(bridge.store.roundTrips - trips == 2)
            expectNoStore(exchanged)
            #expect(exchanged.json["issued_token_type"] as? String == ExchangeFixture.accessTokenType)
            #expect(exchanged.json["token_type"] as? String == "Bearer")
            #expect(exchanged.refreshToken == nil)
            let access = try #require(exchanged.accessToken)
            let seen = try await client.introspect(access, as: "contoso-backend")
            #expect(seen["active"] as? Bool == true)
            #expect(seen["sub"] as? String == "alice")

            // No audience: the token is for the requester; resource may name our issuer; scope can only narrow.
            let own = try await Self.exchange(
                client, subject: user.token,
                extra: [("resource", "https://contoso.com"), ("requested_token_type", ExchangeFixture.accessTokenType)])
            #expect(own.status == .ok)
            #expect(try await client.introspect(try #require(own.accessToken), as: "contoso-exchanger")["active"] as? Bool == true)
            #expect(try await Self.exchange(client, subject: user.token, extra: [("scope", "admin")]).error == "invalid_scope")
        }
    }

    @Test func targetsOutsideTheMerchantAreInvalidTarget() async throws {
        let bridge = try await ExchangeFixture.make()
        let user = try await bridge.issueToken(user: "alice", client: "contoso-app")
        try await bridge.app.makeApplication().test(.live) { client in
            for extra in [
                [("audience", "fabrikam-backend")], [("audience", "office")], [("audience", "nobody")],
                [("audience", "contoso-backend"), ("audience", "contoso-web")],
                [("resource", "https://api.fabrikam.com")],
            ] {
                let refused = try await Self.exchange(client, subject: user.token, extra: extra)
                #expect(refused.status == .badRequest, "\(extra)")
                #expect(refused.error == "invalid_target", "\(extra)")
                #expect(refused.accessToken == nil)
            }
        }
    }

    @Test func badSubjectTokensAndUnsupportedTypesAreInvalidRequest() async throws {
        let bridge = try await ExchangeFixture.make()
        let user = try await bridge.issueToken(user: "alice", client: "contoso-app")
        let foreign = try await bridge.issueToken(user: "alice", client: "office")
        try await bridge.app.makeApplication().test(.live) { client in
            let cases: [(String, OAuthExchange)] = [
                ("forged", try await Self.exchange(client, subject: user.token + "x")),
                ("no merchant", try await Self.exchange(client, subject: foreign.token)),
                ("other merchant's requester", try await Self.exchange(client, subject: user.token, as: "fabrikam-backend")),
                ("jwt type", try await Self.exchange(client, subject: user.token, subjectType: "urn:ietf:params:oauth:token-type:jwt")),
                ("refresh wanted", try await Self.exchange(
                    client, subject: user.token,
                    extra: [("requested_token_type", "urn:ietf:params:oauth:token-type:refresh_token")])),
                ("actor", try await Self.exchange(
                    client, subject: user.token,
                    extra: [("actor_token", user.token), ("actor_token_type", ExchangeFixture.accessTokenType)])),
            ]
            for (name, refused) in cases {
                #expect(refused.status == .badRequest, "\(name)")
                #expect(refused.error == "invalid_request", "\(name)")
            }
            bridge.clock.advance(by: 3600)
            #expect(try await Self.exchange(client, subject: user.token).error == "invalid_request")
        }
    }

    @Test func onlyClientsRegisteredForTheGrantMayExchange() async throws {
        let bridge = try await ExchangeFixture.make()
        let user = try await bridge.issueToken(user: "alice", client: "contoso-app")
        try await bridge.app.makeApplication().test(.live) { client in
            let refused = try await Self.exchange(client, subject: user.token, as: "contoso-backend")
            #expect(refused.error == "unauthorized_client")
        }
    }
}

extension TestClientProtocol {
    /// POSTs an already encoded form to the token endpoint (repeated parameters such as `audience` included).
    func postEncodedForm(_ body: String, basic: (String, String)) async throws -> OAuthExchange {
        let headers: HTTPFields = [
            .contentType: "application/x-www-form-urlencoded",
            .authorization: ClientAuthentication(clientID: basic.0, clientSecret: basic.1, method: .httpBasic)
                .basicAuthorizationHeader,
        ]
        let response = try await executeRequest(
            uri: "/oauth2/token", method: .post, headers: headers, body: ByteBuffer(string: body))
        return OAuthExchange(response: response)
    }
}
