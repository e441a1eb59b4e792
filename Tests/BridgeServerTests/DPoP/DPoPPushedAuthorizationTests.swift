import BridgeStore
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import BridgeServer
@testable import SignInProtocol

/// DPoP at the pushed authorization endpoint (RFC 9449 §10.1), over a real socket: a `DPoP` header is checked as at
/// the token endpoint, and the code of the pushed request is bound to the proof's key.
@Suite("DPoP at the pushed authorization endpoint")
struct DPoPPushedAuthorizationTests {
    static let parURL = "https://contoso.com/oauth2/par"
    static let tokenURL = "https://contoso.com/oauth2/token"
    static let office = ("office", TokenTestClients.officeSecret)
    static let push: KeyValuePairs<String, String> = [
        "response_type": "code", "redirect_uri": "https://localhost", "scope": "wopi", "state": "s",
    ]

    static func push(
        _ client: some TestClientProtocol, proof: String?, dpopJKT: String? = nil
    ) async throws -> OAuthExchange {
        var form = Array(push)
        if let dpopJKT { form.append(("dpop_jkt", dpopJKT)) }
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        headers[.authorization] = ClientAuthentication(clientID: "office", clientSecret: TokenTestClients.officeSecret, method: .httpBasic)
            .basicAuthorizationHeader
        if let proof { headers[.dpop] = proof }
        let body = FormParameters(form.map { FormParameters.Pair($0.0, $0.1) }).encoded
        let response = try await client.executeRequest(
            uri: PushedAuthorizationEndpoint.path, method: .post, headers: headers, body: ByteBuffer(string: body))
        return OAuthExchange(response: response)
    }

    /// The code the pushed request leads to, through the browser (sign-in, and consent the first time).
    static func code(_ client: some TestClientProtocol, requestURI: String) async throws -> String {
        var query = FormParameters()
        query.append("client_id", "office")
        query.append("request_uri", requestURI)
        let browser = TestBrowser(client)
        let signIn = try await browser.get("/oauth2/authorize?" + query.encoded)
        let signedIn = try await browser.signIn(on: signIn)
        let next = try await browser.get(try #require(signedIn.location))
        let done = next.formAction == nil ? next : try await browser.decide("allow", on: next)
        return try #require(try done.redirectParameters()["code"])
    }

    static func thumbprint(_ maker: DPoPProofMaker) throws -> String {
        try JWKThumbprint.sha256(of: maker.publicJWK.mapValues(JSONValue.string))
    }

    /// §10.1: a proof at PAR and no `dpop_jkt` binds the code to the proof's key: redeemed without a proof, or with
    /// another key's, it is `invalid_grant`; with the key's, a DPoP token.
    @Test func aProofAtPARBindsTheCodeToItsKey() async throws {
        let bridge = try await AuthorizeFixture.make()
        let key = DPoPProofMaker()
        try await bridge.app.makeApplication().test(.live) { client in
            let now = bridge.clock.now
            // A code that fails its binding check is spent, so each attempt pushes a request of its own.
            var results: [OAuthExchange] = []
            for proof in [nil, DPoPProofMaker().proof(uri: Self.tokenURL, iat: now), key.proof(uri: Self.tokenURL, iat: now)] {
                let pushed = try await Self.push(client, proof: key.proof(uri: Self.parURL, iat: now))
                #expect(pushed.status == .created, "\(pushed.json)")
                let code = try await Self.code(client, requestURI: try #require(pushed.json["request_uri"] as? String))
                let redeemed = try await client.redeem(code, headers: proof.map { [.dpop: $0] } ?? [:])
                results.append(redeemed)
            }
            #expect(results[0].error == "invalid_grant")
            #expect(results[1].error == "invalid_grant")
            #expect(results[2].status == .ok, "\(results[2].json)")
            #expect(results[2].json["token_type"] as? String == "DPoP")
        }
    }

    /// §10.1: "the authorization server MUST reject the request if the JWK Thumbprint in dpop_jkt does not match the
    /// public key in the DPoP header"; a matching one is fine.
    @Test func aDPoPJKTOfAnotherKeyThanTheProofsIsRefused() async throws {
        let bridge = try await AuthorizeFixture.make()
        let key = DPoPProofMaker(), other = DPoPProofMaker()
        try await bridge.app.makeApplication().test(.live) { client in
            let mismatched = try await Self.push(
                client, proof: key.proof(uri: Self.parURL, iat: bridge.clock.now), dpopJKT: try Self.thumbprint(other))
            #expect(mismatched.status == .badRequest)
            #expect(mismatched.error == "invalid_dpop_proof")
            #expect(mismatched.json["request_uri"] == nil)
            let matching = try await Self.push(
                client, proof: key.proof(uri: Self.parURL, iat: bridge.clock.now), dpopJKT: try Self.thumbprint(key))
            #expect(matching.status == .created)
        }
    }

    /// §4.3 and §11.1 as at the token endpoint: a forged signature, a header that is no proof, a proof for another
    /// URI, a replayed proof are all `invalid_dpop_proof`, and no `request_uri` is handed out.
    @Test func aBadProofAtPARIsInvalidDPoPProof() async throws {
        let bridge = try await AuthorizeFixture.make()
        let key = DPoPProofMaker()
        try await bridge.app.makeApplication().test(.live) { client in
            let now = bridge.clock.now
            let replayed = key.proof(uri: Self.parURL, iat: now)
            #expect(try await Self.push(client, proof: replayed).status == .created)
            for proof in [
                key.proof(uri: Self.parURL, iat: now, sign: { _ in Array(repeating: 0, count: 64) }),
                "garbage",
                key.proof(uri: Self.tokenURL, iat: now),
                key.proof(uri: Self.parURL, iat: now, extraHeader: ["crit": ["exp"]]),
                replayed,
            ] {
                let answer = try await Self.push(client, proof: proof)
                #expect(answer.status == .badRequest, "\(proof.prefix(20))")
                #expect(answer.error == "invalid_dpop_proof")
                #expect(answer.json["request_uri"] == nil)
            }
        }
    }

    /// §8 and §10.1: with nonces required, a proof without one is `use_dpop_nonce` with the nonce in `DPoP-Nonce`,
    /// exactly as at the token endpoint; the retry with it is taken.
    @Test func withNoncesRequiredAProofWithoutOneGetsUseDPoPNonce() async throws {
        let bridge = try await AuthorizeFixture.make(yaml: AuthorizeFixture.yaml + "\ndpop: {requireNonce: true}\n")
        let key = DPoPProofMaker()
        try await bridge.app.makeApplication().test(.live) { client in
            let first = try await Self.push(client, proof: key.proof(uri: Self.parURL, iat: bridge.clock.now))
            #expect(first.status == .badRequest)
            #expect(first.error == "use_dpop_nonce")
            let nonce = try #require(first.response.headers[.dpopNonce])
            let retried = try await Self.push(client, proof: key.proof(uri: Self.parURL, iat: bridge.clock.now, nonce: nonce))
            #expect(retried.status == .created)
            #expect(retried.response.headers[.dpopNonce] == nonce)
        }
    }
}
