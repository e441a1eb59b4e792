import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import HummingbirdTesting
import SignInProtocol
import Testing

/// Clients of two merchants for the exchange code and token exchange tests: Contoso's app (public, first party),
/// back end (confidential), web site (public, first party, two redirect URIs) and exchanger (confidential, may use
/// token exchange); Fabrikam's back end; and Office, which belongs to no merchant. Every confidential client's
/// secret is `secret`.
enum ExchangeFixture {
    static let secret = "office-demo-secret"
    static let secretHash = "sha256:6e15e3912e04b1b7a42a4b562c390a7054a80b3092cc2283c9e74dd9eada34b7"
    static let tokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
    static let accessTokenType = "urn:ietf:params:oauth:token-type:access_token"

    static func yaml(exchange: String = "") -> String {
        """
        issuer: https://contoso.com
        listen: {host: 127.0.0.1, port: 0}
        log: {level: warning, requests: false}
        signIn: {bcryptCost: 4}
        \(exchange)
        wopi:
          ecosystemUrlTemplate: https://contoso.com/wopi/ecosystem?access_token={access_token}
          rootContainer: {name: My files, urlTemplate: "https://contoso.com/wopi/containers/root?access_token={access_token}"}
          wopiSrcPrefixes: [https://contoso.com/wopi/files/]
        clients:
          - id: office
            secretHash: \(secretHash)
            redirectUris: [https://localhost]
            grants: [authorization_code, refresh_token]
          - id: contoso-app
            merchant: contoso
            public: true
            firstParty: true
            redirectUris: [com.contoso.files:/done]
            grants: [authorization_code]
          - id: contoso-backend
            merchant: contoso
            secretHash: \(secretHash)
            redirectUris: [https://backend.contoso.com/cb]
            grants: [authorization_code]
          - id: contoso-web
            merchant: contoso
            public: true
            firstParty: true
            redirectUris: [https://web.contoso.com/home, https://web.contoso.com/account]
            grants: [authorization_code]
          - id: contoso-exchanger
            merchant: contoso
            secretHash: \(secretHash)
            redirectUris: [https://exchanger.contoso.com/cb]
            grants: ["\(tokenExchange)"]
          - id: fabrikam-backend
            merchant: fabrikam
            secretHash: \(secretHash)
            redirectUris: [https://backend.fabrikam.com/cb]
            grants: [authorization_code, "\(tokenExchange)"]
        users:
          - id: alice
            signInName: alice@contoso.com
            passwordHash: $2b$12$spZMyuggXL3hVlAEWn6Ji.2/o./7RYcPQD49gPV/Me1vHSjTCvTuS
        """
    }

    static func make(exchange: String = "") async throws -> TestBridge {
        try await TestBridge.make(yaml: yaml(exchange: exchange))
    }
}

extension TestClientProtocol {
    /// `POST /oauth/exchange` with the user's token in the Authorization header.
    func exchange(_ token: String, clientId: String, type: String, redirectURI: String? = nil) async throws -> OAuthExchange {
        if let redirectURI {
            return try await postForm(
                "/oauth/exchange", ["clientId": clientId, "type": type, "redirect_uri": redirectURI],
                headers: [.authorization: "Bearer \(token)"])
        }
        return try await postForm(
            "/oauth/exchange", ["clientId": clientId, "type": type], headers: [.authorization: "Bearer \(token)"])
    }

    /// A back end redeems an exchange code with its own credentials and no redirect URI.
    func redeemExchangeCode(_ code: String, as client: String) async throws -> OAuthExchange {
        try await postForm(
            "/oauth2/token", ["grant_type": "authorization_code", "code": code], basic: (client, ExchangeFixture.secret))
    }

    /// RFC 7662 introspection by `client`: active only for that client's own tokens.
    func introspect(_ token: String, as client: String) async throws -> [String: Any] {
        try await postForm("/oauth2/introspect", ["token": token], basic: (client, ExchangeFixture.secret)).json
    }
}
