import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

@testable import BridgeServer

/// A server with OpenID Connect clients: the host's own app (first-party, approves app-to-app requests), a
/// merchant app (third party, `requireNonce`, app-to-app), and a first-party app that approves nothing.
enum OpenIDFixture {
    static let yaml = """
        issuer: https://contoso.com
        listen: {host: 127.0.0.1, port: 0}
        log: {level: warning, requests: false}
        signIn: {bcryptCost: 4, throttle: {maxFailures: 3, windowSeconds: 900}}
        appToApp: {deepLink: "com.contoso.files:/app-to-app", referenceLifetimeSeconds: 120}
        clients:
          - id: host-app
            public: true
            firstParty: true
            redirectUris: [com.contoso.files:/done]
            grants: [authorization_code]
            scopes: [openid, profile, email, phone, wopi]
            postLogoutRedirectUris: [com.contoso.files:/signed-out]
          - id: merchant-app
            name: Example Merchant
            public: true
            redirectUris: [com.example.merchant:/oauth2redirect]
            appCallbackUris: [com.example.merchant:/app-callback]
            appToAppApprovers: [host-app]
            grants: [authorization_code]
            scopes: [openid, profile, email]
            requireNonce: true
          - id: other-app
            public: true
            firstParty: true
            redirectUris: [com.contoso.other:/done]
            grants: [authorization_code]
            scopes: [openid, wopi]
        """

    /// `hostAppAlgorithm`: the host app's `idTokenSignedResponseAlg`, nil to leave it to the default (RS256).
    static func make(hostAppAlgorithm: String? = nil) async throws -> TestBridge {
        let configuration = hostAppAlgorithm.map {
            ConfigurationBuilder.openIDFixture.client("host-app", setting: "idTokenSignedResponseAlg", to: .string($0))
        }
        let bridge = try await TestBridge.make(configuration ?? .openIDFixture)
        try await bridge.store.saveUser(
            UserRecord(
                id: "alice", signInName: "alice@contoso.com", friendlyName: "Alice",
                passwordHash: try await bridge.app.hashPassword(AuthorizeFixture.password), email: "alice@contoso.com",
                phoneNumber: "+4712345678"))
        return bridge
    }

    static func query(
        client: String = "host-app", redirect: String = "com.contoso.files:/done", scope: String = "openid profile email",
        nonce: String? = "n-0S6_WzA2Mj", extra: [(String, String)] = []
    ) -> String {
        var form = FormParameters()
        form.append("client_id", client)
        form.append("redirect_uri", redirect)
        form.append("response_type", "code")
        form.append("scope", scope)
        form.append("state", "st-1")
        form.append("nonce", nonce)
        form.append("code_challenge", AuthorizeFixture.challenge)
        form.append("code_challenge_method", "S256")
        for (name, value) in extra { form.append(name, value) }
        return form.encoded
    }

    /// authorize → sign in → the final redirect (first-party clients skip consent).
    static func signedInRedirect(_ browser: TestBrowser, query: String) async throws -> TestBrowser.Page {
        let signInPage = try await browser.get("/oauth2/authorize?" + query)
        let afterSignIn = try await browser.signIn(on: signInPage)
        return try await browser.get(try #require(afterSignIn.location))
    }

    static func redeem(
        _ client: some TestClientProtocol, code: String, clientID: String = "host-app",
        redirect: String = "com.contoso.files:/done"
    ) async throws -> OAuthExchange {
        try await client.postForm(
            "/oauth2/token",
            [
                "grant_type": "authorization_code", "code": code, "redirect_uri": redirect, "client_id": clientID,
                "code_verifier": AuthorizeFixture.verifier,
            ])
    }
}
