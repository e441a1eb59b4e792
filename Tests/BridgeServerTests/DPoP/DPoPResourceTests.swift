import BridgeStore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import BridgeServer
@testable import SignInProtocol

/// DPoP-bound tokens at the protected resources (RFC 9449 §7), over a real socket: userinfo, the exchange endpoint,
/// token exchange and introspection.
@Suite("DPoP at the resources")
struct DPoPResourceTests {
    static let userInfoURL = "https://contoso.com/userinfo"

    /// RFC 9449 §4.2: base64url(SHA-256(token)).
    static func ath(_ token: String) -> String { Base64URL.encode(Array(SHA256.hash(data: Array(token.utf8)))) }

    /// A DPoP-bound token of partner-app for alice, with scope `openid wopi`.
    static func boundToken(_ bridge: TestBridge, _ client: some TestClientProtocol, key: DPoPProofMaker) async throws -> String {
        let issued = try await DPoPTokenEndpointTests.partnerTokens(
            bridge, client, proof: key.proof(uri: DPoPTokenEndpointTests.tokenURL, iat: bridge.clock.now), scope: "openid wopi")
        #expect(issued.json["token_type"] as? String == "DPoP")
        return try #require(issued.accessToken)
    }

    static func userInfo(_ client: some TestClientProtocol, _ headers: HTTPFields) async throws -> TestResponse {
        try await client.executeRequest(uri: "/userinfo", method: .get, headers: headers, body: nil)
    }

    static func challenges(_ response: TestResponse) -> [String] { response.headers[values: .wwwAuthenticate] }

    @Test func userInfoTakesABoundTokenWithAProofByItsKey() async throws {
        let bridge = try await TestBridge.makeForTokens()
        let key = DPoPProofMaker()
        let now = bridge.clock.now
        try await bridge.app.makeApplication().test(.live) { client in
            let token = try await Self.boundToken(bridge, client, key: key)
            let proof = key.proof(method: "GET", uri: Self.userInfoURL, iat: now, ath: Self.ath(token))
            let answer = try await Self.userInfo(client, [.authorization: "DPoP \(token)", .dpop: proof])
            #expect(answer.status == .ok)
            #expect(String(buffer: answer.body).contains(#""sub""#))
            // §11.1: the same proof again is a replay.
            let replay = try await Self.userInfo(client, [.authorization: "DPoP \(token)", .dpop: proof])
            #expect(replay.status == .unauthorized)
            #expect(Self.challenges(replay).contains { $0.hasPrefix("DPoP ") && $0.contains(#"error="invalid_dpop_proof""#) })
        }
    }

    @Test func aBoundTokenSentAsBearerIsInvalidToken() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await bridge.app.makeApplication().test(.live) { client in
            let token = try await Self.boundToken(bridge, client, key: DPoPProofMaker())
            let answer = try await Self.userInfo(client, [.authorization: "Bearer \(token)"])
            #expect(answer.status == .unauthorized)
            #expect(Self.challenges(answer).contains { $0.hasPrefix("Bearer ") && $0.contains(#"error="invalid_token""#) })
            // The bootstrapper takes bearer tokens only, and refuses a bound one too.
            #expect(try await client.bootstrapStatus(token) == .unauthorized)
        }
    }

    @Test func proofsThatDoNotFitTheRequestAreRefused() async throws {
        let bridge = try await TestBridge.makeForTokens()
        let key = DPoPProofMaker()
        let now = bridge.clock.now
        try await bridge.app.makeApplication().test(.live) { client in
            let token = try await Self.boundToken(bridge, client, key: key)
            let cases: [(String?, String)] = [
                (key.proof(method: "GET", uri: Self.userInfoURL, iat: now, ath: Self.ath("another token")), "invalid_dpop_proof"),
                (key.proof(method: "GET", uri: Self.userInfoURL, iat: now), "invalid_dpop_proof"),
                (key.proof(method: "POST", uri: Self.userInfoURL, iat: now, ath: Self.ath(token)), "invalid_dpop_proof"),
                (nil, "invalid_dpop_proof"),
                // A good proof by another key: the token is not bound to it.
                (DPoPProofMaker().proof(method: "GET", uri: Self.userInfoURL, iat: now, ath: Self.ath(token)), "invalid_token"),
            ]
            for (proof, error) in cases {
                var headers: HTTPFields = [.authorization: "DPoP \(token)"]
                if let proof { headers[.dpop] = proof }
                let answer = try await Self.userInfo(client, headers)
                #expect(answer.status == .unauthorized)
                #expect(Self.challenges(answer).contains { $0.contains(#"error="\#(error)""#) }, "\(error)")
            }
        }
    }

    @Test func withoutACredentialBothSchemesAreOfferedWithTheirAlgorithms() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await bridge.app.makeApplication().test(.live) { client in
            let answer = try await Self.userInfo(client, [:])
            #expect(answer.status == .unauthorized)
            #expect(Self.challenges(answer) == [
                #"Bearer realm="https://contoso.com""#,
                #"DPoP realm="https://contoso.com", algs="\#(DPoPProofKey.algorithms.joined(separator: " "))""#,
            ])
        }
    }

    @Test func aResourceAsksForTheNonceWhenNoncesAreRequired() async throws {
        let bridge = try await TestBridge.make(TokenTestClients.configuration.addingSections("dpop: {requireNonce: true}"))
        let key = DPoPProofMaker()
        let now = bridge.clock.now
        try await bridge.app.makeApplication().test(.live) { client in
            let first = try await DPoPTokenEndpointTests.partnerTokens(
                bridge, client, proof: key.proof(uri: DPoPTokenEndpointTests.tokenURL, iat: now), scope: "openid")
            let nonce = try #require(first.response.headers[.dpopNonce])
            let issued = try await DPoPTokenEndpointTests.partnerTokens(
                bridge, client, proof: key.proof(uri: DPoPTokenEndpointTests.tokenURL, iat: now, nonce: nonce), scope: "openid")
            let token = try #require(issued.accessToken)
            let without = key.proof(method: "GET", uri: Self.userInfoURL, iat: now, ath: Self.ath(token))
            let asked = try await Self.userInfo(client, [.authorization: "DPoP \(token)", .dpop: without])
            #expect(asked.status == .unauthorized)
            #expect(Self.challenges(asked).contains { $0.hasPrefix("DPoP ") && $0.contains(#"error="use_dpop_nonce""#) })
            #expect(asked.headers[.dpopNonce] == nonce)
            let with = key.proof(method: "GET", uri: Self.userInfoURL, iat: now, ath: Self.ath(token), nonce: nonce)
            #expect(try await Self.userInfo(client, [.authorization: "DPoP \(token)", .dpop: with]).status == .ok)
        }
    }

    @Test func introspectionReportsTheBindingAndTheTokenType() async throws {
        let bridge = try await TestBridge.makeForTokens()
        let key = DPoPProofMaker()
        try await bridge.app.makeApplication().test(.live) { client in
            let (code, _) = try await bridge.issueCode()
            let issued = try await client.redeem(
                code, headers: [.dpop: key.proof(uri: DPoPTokenEndpointTests.tokenURL, iat: bridge.clock.now)])
            let seen = try await client.postForm(
                "/oauth2/introspect", ["token": try #require(issued.accessToken)], basic: ("office", TokenTestClients.officeSecret))
            #expect(seen.json["token_type"] as? String == "DPoP")
            #expect(seen.json["cnf"] as? [String: String] == ["jkt": try DPoPTokenEndpointTests.thumbprint(key)])
        }
    }

    /// contoso-app's token for alice, bound to `key`, as the token endpoint issues one after a proof.
    static func boundContosoToken(_ bridge: TestBridge, key: DPoPProofMaker) async throws -> String {
        let grant = GrantRecord(userID: "alice", clientID: "contoso-app", scope: "wopi", createdAt: bridge.clock.now)
        return try await bridge.app.accessTokenIssuer.issue(
            inNewGrant: grant, at: bridge.clock.now, boundTo: try DPoPTokenEndpointTests.thumbprint(key)).token
    }

    @Test func theExchangeEndpointTakesABoundTokenWithItsProof() async throws {
        let bridge = try await ExchangeFixture.make()
        let key = DPoPProofMaker()
        let now = bridge.clock.now
        let token = try await Self.boundContosoToken(bridge, key: key)
        try await bridge.app.makeApplication().test(.live) { client in
            let asBearer = try await client.postForm(
                "/oauth/exchange", ["clientId": "contoso-backend", "type": "code"], headers: [.authorization: "Bearer \(token)"])
            #expect(asBearer.status == .unauthorized)
            #expect(asBearer.response.headers[values: .wwwAuthenticate].contains { $0.hasPrefix("DPoP ") })
            let proof = key.proof(uri: "https://contoso.com/oauth/exchange", iat: now, ath: Self.ath(token))
            let withProof = try await client.postForm(
                "/oauth/exchange", ["clientId": "contoso-backend", "type": "code"],
                headers: [.authorization: "DPoP \(token)", .dpop: proof])
            #expect(withProof.status == .ok)
        }
    }

    @Test func tokenExchangeTakesABoundSubjectTokenOnlyWithAProofByItsKey() async throws {
        let bridge = try await ExchangeFixture.make()
        let key = DPoPProofMaker()
        let now = bridge.clock.now
        let subject = try await Self.boundContosoToken(bridge, key: key)
        try await bridge.app.makeApplication().test(.live) { client in
            let form: KeyValuePairs<String, String> = [
                "grant_type": ExchangeFixture.tokenExchange, "subject_token": subject,
                "subject_token_type": ExchangeFixture.accessTokenType,
            ]
            let requester = ("contoso-exchanger", ExchangeFixture.secret)
            #expect(try await client.postForm("/oauth2/token", form, basic: requester).error == "invalid_request")
            let stranger = DPoPProofMaker().proof(uri: DPoPTokenEndpointTests.tokenURL, iat: now)
            #expect(try await client.postForm("/oauth2/token", form, basic: requester, headers: [.dpop: stranger]).error == "invalid_request")
            let proof = key.proof(uri: DPoPTokenEndpointTests.tokenURL, iat: now)
            let exchanged = try await client.postForm("/oauth2/token", form, basic: requester, headers: [.dpop: proof])
            #expect(exchanged.status == .ok)
            // The issued token is bound to the requester's key, which sent the proof.
            #expect(exchanged.json["token_type"] as? String == "DPoP")
        }
    }
}
