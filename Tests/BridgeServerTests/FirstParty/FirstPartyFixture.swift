import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SignInProtocol
import Testing

@testable import BridgeServer

/// A server with the authorization challenge endpoint on (draft-ietf-oauth-first-party-apps-04): two first-party
/// public apps and two users, so that a step-up can be tried with the other user's credentials.
enum FirstPartyFixture {
    static let yaml = """
        issuer: https://contoso.com
        listen: {host: 127.0.0.1, port: 0}
        log: {level: warning, requests: false}
        signIn: {bcryptCost: 4, throttle: {maxFailures: 5, windowSeconds: 900}}
        firstPartyApps: {enabled: true}
        clients:
          - id: partner-app
            public: true
            firstParty: true
            redirectUris: [com.example.partner:/oauth2redirect]
            grants: [authorization_code, refresh_token]
            scopes: [openid, profile, wopi]
          - id: files-lite
            public: true
            firstParty: true
            redirectUris: [com.example.lite:/oauth2redirect]
            grants: [authorization_code]
            scopes: [openid, profile]
        """

    static let demo = (id: "demo", name: "demo@example.com", password: "demo-password")
    static let other = (id: "other", name: "other@example.com", password: "other-password")

    static func make(yaml: String = yaml) async throws -> TestBridge {
        let bridge = try await TestBridge.make(yaml: yaml)
        for user in [demo, other] {
            try await bridge.store.saveUser(
                UserRecord(
                    id: user.id, signInName: user.name, friendlyName: user.id,
                    passwordHash: try await bridge.app.hashPassword(user.password)))
        }
        return bridge
    }

    /// A first request's authorization parameters (PKCE S256, RFC 7636 Appendix B's pair) and `extra`.
    static func first(client: String = "partner-app", scope: String = "openid profile", _ extra: [(String, String)] = [])
        -> [(String, String)]
    {
        [
            ("client_id", client), ("response_type", "code"), ("scope", scope),
            ("code_challenge", AuthorizeFixture.challenge), ("code_challenge_method", "S256"),
        ] + extra
    }

    static func challenge(_ client: some TestClientProtocol, _ fields: [(String, String)]) async throws -> OAuthExchange {
        var form = FormParameters()
        for (name, value) in fields { form.append(name, value) }
        let response = try await client.executeRequest(
            uri: AuthorizationChallengeEndpoint.path, method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: form.encoded))
        return OAuthExchange(response: response)
    }

    /// The code redeemed as a first-party app does: no redirect_uri (§6), the PKCE verifier.
    static func redeem(_ client: some TestClientProtocol, code: String, clientID: String = "partner-app")
        async throws -> OAuthExchange
    {
        try await client.postForm(
            "/oauth2/token",
            ["grant_type": "authorization_code", "code": code, "client_id": clientID, "code_verifier": AuthorizeFixture.verifier])
    }

    /// Signs `user` in natively in one request and redeems the code: the token response.
    static func tokens(
        _ client: some TestClientProtocol, user: (id: String, name: String, password: String) = demo,
        scope: String = "openid profile"
    ) async throws -> OAuthExchange {
        let answer = try await challenge(client, first(scope: scope, [("username", user.name), ("password", user.password)]))
        let code = try #require(answer.json["authorization_code"] as? String, "\(answer.json)")
        let tokens = try await redeem(client, code: code)
        #expect(tokens.status == .ok)
        return tokens
    }

    /// The ID token's `sub`, verified with the server's keys.
    static func subject(of tokens: OAuthExchange, in bridge: TestBridge) async throws -> String {
        let idToken = try #require(tokens.json["id_token"] as? String)
        return try await bridge.app.keys.collection.verify(idToken, as: IDTokenClaims.self).sub
    }
}
