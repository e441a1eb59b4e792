import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import BridgeServer
@testable import SignInProtocol

/// A refresh token issued to a client authenticated by attestation is bound to its Client Instance Key, and the
/// client MUST use client attestation when refreshing (draft-ietf-oauth-attestation-based-client-auth-11 §9.3,
/// refresh token binding); over a real socket.
@Suite("Attestation-bound refresh tokens")
struct AttestedRefreshTests {
    static let tokenURL = "https://contoso.com/oauth2/token"
    let maker = ClientAttestationMaker()

    /// partner-app (public, attestation allowed but not required) with this maker's attester trusted.
    var configuration: ConfigurationBuilder { TokenTestClients.configuration.addingSections(maker.attestersYAML) }

    func attestationHeaders(at now: Date) -> HTTPFields {
        [
            .oauthClientAttestation: maker.attestation(sub: "partner-app", iat: now.addingTimeInterval(-60), exp: now.addingTimeInterval(3600)),
            .oauthClientAttestationPoP: maker.proof(aud: "https://contoso.com", iat: now),
        ]
    }

    func refresh(_ client: some TestClientProtocol, _ token: String, headers: HTTPFields) async throws -> OAuthExchange {
        try await client.postForm(
            "/oauth2/token", ["grant_type": "refresh_token", "refresh_token": token, "client_id": "partner-app"],
            headers: headers)
    }

    @Test func anAttestationBoundRefreshTokenRefreshesOnlyWithAnAttestation() async throws {
        let bridge = try await TestBridge.make(configuration)
        // The app proves DPoP with its instance key, as an app with one hardware key does.
        let instanceDPoP = DPoPProofMaker(key: maker.instanceKey)
        let now = bridge.clock.now
        let latest = try await bridge.app.makeApplication().test(.live) { client -> String in
            let verifier = PKCE.Verifier.random()
            let (code, _) = try await bridge.issueCode(
                client: "partner-app", redirectURI: TokenTestClients.partnerRedirect, verifier: verifier)
            var headers = attestationHeaders(at: now)
            headers[.dpop] = instanceDPoP.proof(uri: Self.tokenURL, iat: now)
            let issued = try await client.postForm(
                "/oauth2/token",
                ["grant_type": "authorization_code", "code": code, "redirect_uri": TokenTestClients.partnerRedirect,
                 "client_id": "partner-app", "code_verifier": verifier.value],
                headers: headers)
            #expect(issued.status == .ok, "\(issued.json)")
            let refreshToken = try #require(issued.refreshToken)

            // client_id and a proof by the instance key, but no attestation: refused, and the token is left as it was.
            let withoutAttestation = try await refresh(client, refreshToken, headers: [.dpop: instanceDPoP.proof(uri: Self.tokenURL, iat: now)])
            #expect(withoutAttestation.error == "invalid_grant", "\(withoutAttestation.json)")
            #expect(try await refresh(client, refreshToken, headers: [:]).error == "invalid_grant")
            // An attestation of another instance key is refused too.
            let otherInstance = ClientAttestationMaker()
            let foreign: HTTPFields = [
                .oauthClientAttestation: maker.attestation(sub: "partner-app", cnf: otherInstance.instanceKey.publicKey),
                .oauthClientAttestationPoP: otherInstance.proof(aud: "https://contoso.com", iat: now),
            ]
            #expect(try await refresh(client, refreshToken, headers: foreign).error == "invalid_grant")

            let refreshed = try await refresh(client, refreshToken, headers: attestationHeaders(at: now))
            #expect(refreshed.status == .ok, "\(refreshed.json)")
            return try #require(refreshed.refreshToken)
        }

        // The attester removed from the configuration: the same store, no attester; the token refreshes no more.
        let withoutAttester = try await TestBridge.make(TokenTestClients.configuration, directory: bridge.directory, clock: bridge.clock)
        try await withoutAttester.app.makeApplication().test(.live) { client in
            var headers = attestationHeaders(at: now)
            headers[.dpop] = instanceDPoP.proof(uri: Self.tokenURL, iat: now)
            let answer = try await refresh(client, latest, headers: headers)
            #expect(answer.error == "invalid_grant", "\(answer.json)")
        }
    }
}
