import BridgeStore
import BridgeStoreSQLite
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import BridgeServer
@testable import SignInProtocol

/// DPoP at the token endpoint (RFC 9449 §5), over a real socket.
@Suite("DPoP at the token endpoint")
struct DPoPTokenEndpointTests {
    static let tokenURL = "https://contoso.com/oauth2/token"

    /// The payload of a compact JWT, decoded.
    static func claims(of jwt: String) throws -> [String: Any] {
        let part = try #require(jwt.split(separator: ".").dropFirst().first)
        let bytes = try #require(Base64URL.decode(String(part)))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    static func thumbprint(_ maker: DPoPProofMaker) throws -> String {
        try JWKThumbprint.sha256(of: maker.publicJWK.mapValues(JSONValue.string))
    }

    /// partner-app's code redeemed with a proof by `maker`: the exchange.
    static func partnerTokens(
        _ bridge: TestBridge, _ client: some TestClientProtocol, proof: String?, scope: String = "wopi"
    ) async throws -> OAuthExchange {
        let verifier = PKCE.Verifier.random()
        let (code, _) = try await bridge.issueCode(
            client: "partner-app", redirectURI: TokenTestClients.partnerRedirect, verifier: verifier, scope: scope)
        return try await client.postForm(
            "/oauth2/token",
            ["grant_type": "authorization_code", "code": code, "redirect_uri": TokenTestClients.partnerRedirect,
             "client_id": "partner-app", "code_verifier": verifier.value],
            headers: proof.map { [.dpop: $0] } ?? [:])
    }

    static func refresh(_ client: some TestClientProtocol, _ token: String, proof: String?) async throws -> OAuthExchange {
        try await client.postForm(
            "/oauth2/token", ["grant_type": "refresh_token", "refresh_token": token, "client_id": "partner-app"],
            headers: proof.map { [.dpop: $0] } ?? [:])
    }

    @Test func aProofBindsTheAccessTokenAndAPublicClientsRefreshToken() async throws {
        let bridge = try await TestBridge.makeForTokens()
        let key = DPoPProofMaker()
        let now = bridge.clock.now
        try await bridge.app.makeApplication().test(.live) { client in
            let issued = try await Self.partnerTokens(bridge, client, proof: key.proof(uri: Self.tokenURL, iat: now))
            #expect(issued.status == .ok)
            #expect(issued.json["token_type"] as? String == "DPoP")
            let access = try #require(issued.accessToken)
            let cnf = try #require(try Self.claims(of: access)["cnf"] as? [String: String])
            #expect(cnf == ["jkt": try Self.thumbprint(key)])
            let refreshToken = try #require(issued.refreshToken)

            // §5: the bound refresh token needs a proof by the same key; without one, or with another key, it is
            // refused and left as it was (no rotation, no revocation).
            #expect(try await Self.refresh(client, refreshToken, proof: nil).error == "invalid_grant")
            let stranger = DPoPProofMaker().proof(uri: Self.tokenURL, iat: now)
            #expect(try await Self.refresh(client, refreshToken, proof: stranger).error == "invalid_grant")
            let refreshed = try await Self.refresh(client, refreshToken, proof: key.proof(uri: Self.tokenURL, iat: now))
            #expect(refreshed.status == .ok)
            #expect(refreshed.json["token_type"] as? String == "DPoP")
            // The new refresh token is bound to the same key.
            let next = try #require(refreshed.refreshToken)
            #expect(try await Self.refresh(client, next, proof: nil).error == "invalid_grant")
            #expect(try await Self.refresh(client, next, proof: key.proof(uri: Self.tokenURL, iat: now)).status == .ok)
        }
    }

    /// RFC 9449 §10: a code requested with `dpop_jkt` is redeemed only with a proof by that key.
    @Test func aCodeBoundWithDPoPJKTNeedsAProofByThatKey() async throws {
        let bridge = try await TestBridge.makeForTokens()
        let key = DPoPProofMaker()
        let now = bridge.clock.now
        try await bridge.app.makeApplication().test(.live) { client in
            for (proof, status) in [
                (nil, HTTPResponse.Status.badRequest), (DPoPProofMaker().proof(uri: Self.tokenURL, iat: now), .badRequest),
                (key.proof(uri: Self.tokenURL, iat: now), .ok),
            ] {
                let (code, _) = try await bridge.issueCode(dpopKeyThumbprint: try Self.thumbprint(key))
                let answer = try await client.redeem(code, headers: proof.map { [.dpop: $0] } ?? [:])
                #expect(answer.status == status, "\(answer.json)")
                if status != .ok { #expect(answer.error == "invalid_grant") }
            }
        }
    }

    @Test func aConfidentialClientsRefreshTokenIsNotBound() async throws {
        let bridge = try await TestBridge.makeForTokens()
        let key = DPoPProofMaker()
        try await bridge.app.makeApplication().test(.live) { client in
            let (code, _) = try await bridge.issueCode()
            let issued = try await client.redeem(code, headers: [.dpop: key.proof(uri: Self.tokenURL, iat: bridge.clock.now)])
            #expect(issued.status == .ok)
            #expect(issued.json["token_type"] as? String == "DPoP")
            let refreshToken = try #require(issued.refreshToken)
            let refreshed = try await client.postForm(
                "/oauth2/token", ["grant_type": "refresh_token", "refresh_token": refreshToken],
                basic: ("office", TokenTestClients.officeSecret))
            #expect(refreshed.status == .ok)
            #expect(refreshed.json["token_type"] as? String == "Bearer")
        }
    }

    @Test func withoutAProofTokensStayBearerTokens() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await bridge.app.makeApplication().test(.live) { client in
            let issued = try await Self.partnerTokens(bridge, client, proof: nil)
            #expect(issued.json["token_type"] as? String == "Bearer")
            #expect(try Self.claims(of: try #require(issued.accessToken))["cnf"] == nil)
            #expect(issued.response.headers[.dpopNonce] == nil)
        }
    }

    @Test func badProofsAreInvalidDPoPProofAndUseNothingUp() async throws {
        let bridge = try await TestBridge.makeForTokens()
        let key = DPoPProofMaker()
        let now = bridge.clock.now
        try await bridge.app.makeApplication().test(.live) { client in
            for proof in [
                key.proof(method: "GET", uri: Self.tokenURL, iat: now),
                key.proof(uri: "https://contoso.com/userinfo", iat: now),
                key.proof(uri: Self.tokenURL, iat: now.addingTimeInterval(-301)),
                key.proof(alg: "none", uri: Self.tokenURL, iat: now),
                "not a proof",
            ] {
                let answer = try await Self.partnerTokens(bridge, client, proof: proof)
                #expect(answer.status == .badRequest)
                #expect(answer.error == "invalid_dpop_proof")
            }
            // §11.1: a proof is good once.
            let proof = key.proof(uri: Self.tokenURL, iat: now)
            #expect(try await Self.partnerTokens(bridge, client, proof: proof).status == .ok)
            #expect(try await Self.partnerTokens(bridge, client, proof: proof).error == "invalid_dpop_proof")
        }
    }

    @Test func aClientThatRequiresDPoPIsRefusedWithoutAProof() async throws {
        let bridge = try await TestBridge.make(
            TokenTestClients.configuration.client("partner-app", setting: "requireDPoP", to: true))
        try await bridge.app.makeApplication().test(.live) { client in
            let without = try await Self.partnerTokens(bridge, client, proof: nil)
            #expect(without.error == "invalid_dpop_proof")
            let proof = DPoPProofMaker().proof(uri: Self.tokenURL, iat: bridge.clock.now)
            #expect(try await Self.partnerTokens(bridge, client, proof: proof).status == .ok)
        }
    }

    @Test func whenNoncesAreRequiredAProofWithoutOneGetsUseDPoPNonceAndTheNonce() async throws {
        let bridge = try await TestBridge.make(TokenTestClients.configuration.addingSections("dpop: {requireNonce: true}"))
        let key = DPoPProofMaker()
        let now = bridge.clock.now
        try await bridge.app.makeApplication().test(.live) { client in
            let first = try await Self.partnerTokens(bridge, client, proof: key.proof(uri: Self.tokenURL, iat: now))
            #expect(first.status == .badRequest)
            #expect(first.error == "use_dpop_nonce")
            let nonce = try #require(first.response.headers[.dpopNonce])
            let stale = key.proof(uri: Self.tokenURL, iat: now, nonce: "stale")
            #expect(try await Self.partnerTokens(bridge, client, proof: stale).error == "use_dpop_nonce")
            let retried = try await Self.partnerTokens(bridge, client, proof: key.proof(uri: Self.tokenURL, iat: now, nonce: nonce))
            #expect(retried.status == .ok)
            #expect(retried.response.headers[.dpopNonce] == nonce)
            // Good for its slot and the next; older ones are stale.
            bridge.clock.advance(by: 700)
            let later = key.proof(uri: Self.tokenURL, iat: bridge.clock.now, nonce: nonce)
            #expect(try await Self.partnerTokens(bridge, client, proof: later).error == "use_dpop_nonce")
        }
    }

    @Test func theMetadataListsTheProofAlgorithms() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await bridge.app.makeApplication().test(.live) { client in
            let response = try await client.executeRequest(
                uri: "/.well-known/openid-configuration", method: .get, headers: [:], body: nil)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(json["dpop_signing_alg_values_supported"] as? [String] == DPoPProofKey.algorithms)
        }
    }

    @Test func instancesSharingTheKeyFileAcceptEachOthersNonces() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dpop-nonce-\(UUID().uuidString)")
        let path = directory.appendingPathComponent("keys.json").path
        let first = try await SigningKeyFile.loadOrCreate(path: path).keys
        let second = try await SigningKeyFile.loadOrCreate(path: path).keys
        let store = try await SQLiteStore.open(path: directory.appendingPathComponent("bridge.sqlite").path)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let minted = DPoPProofs(requireNonce: true, secret: first.dpopNonceSecret, store: store).nonces.current(at: now)
        #expect(DPoPProofs(requireNonce: true, secret: second.dpopNonceSecret, store: store).nonces.accepts(minted, at: now))
        let stranger = try await SigningKeySet.generate()
        #expect(!DPoPProofs(requireNonce: true, secret: stranger.dpopNonceSecret, store: store).nonces.accepts(minted, at: now))
    }
}
