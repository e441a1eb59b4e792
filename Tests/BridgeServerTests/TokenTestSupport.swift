import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SignInProtocol
import Testing

/// Clients for the token endpoint tests, on top of `TestBridge.yaml`: Office (confidential, with a `tk` URL and
/// session context), a public native app, and a back end allowed `client_credentials`.
enum TokenTestClients {
    static let officeSecret = "office-demo-secret"
    static let backendSecret = "backend-demo-secret"
    static let officeRedirect = "https://localhost"
    static let partnerRedirect = "com.example.partner:/oauth2redirect"
    /// The Office docs' own `tk` example (Microsoft's Office app-to-app docs), moved onto the test issuer.
    static let tkURL = "https://contoso.com/api/token/?extra=stuff"

    static let configuration = ConfigurationBuilder.testBridge
        .client("office", setting: "tokenEndpointOverride", to: .string(tkURL))
        .client("office", setting: "sessionContext", to: true)
        .addingClient("{id: partner-app, public: true, redirectUris: [\(partnerRedirect)], grants: [authorization_code, refresh_token]}")
        .addingClient("""
            id: backend
            secretHash: sha256:b2bcef27c53e2fa7b35f5e9cbd97a3f2add45b7a3d924283367b7da474580120
            redirectUris: [https://backend.contoso.com/cb]
            grants: [client_credentials]
            """)
}

extension TestBridge {
    static func makeForTokens() async throws -> TestBridge {
        try await make(TokenTestClients.configuration)
    }

    /// An authorization code as the authorize endpoint stores one: its own grant, 60 s lifetime by default.
    func issueCode(
        client: String = "office", redirectURI: String = TokenTestClients.officeRedirect,
        verifier: PKCE.Verifier? = nil, scope: String = "wopi", lifetime: TimeInterval = 60, user: String = "alice",
        dpopKeyThumbprint: String? = nil
    ) async throws -> (code: String, grant: GrantRecord) {
        let grant = GrantRecord(userID: user, clientID: client, scope: scope, createdAt: clock.now)
        try await store.createGrant(grant)
        let code = SecretToken()
        let challenge = verifier?.challenge(method: .s256)
        try await store.issueAuthorizationCode(
            AuthorizationCodeRecord(
                digest: code.digest, grantID: grant.id, clientID: client, redirectURI: redirectURI,
                codeChallenge: challenge?.value, codeChallengeMethod: challenge?.method.rawValue, scope: scope,
                issuedAt: clock.now, expiresAt: clock.now.addingTimeInterval(lifetime), dpopKeyThumbprint: dpopKeyThumbprint))
        return (code.value, grant)
    }
}

/// A form POST and its decoded answer.
struct OAuthExchange {
    let response: TestResponse
    var status: HTTPResponse.Status { response.status }
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]) ?? [:]
    }
    var error: String? { json["error"] as? String }
    var accessToken: String? { json["access_token"] as? String }
    var refreshToken: String? { json["refresh_token"] as? String }
}

extension TestClientProtocol {
    /// POSTs `form` as `application/x-www-form-urlencoded`.
    func postForm(
        _ path: String, _ form: KeyValuePairs<String, String>, basic: (String, String)? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> OAuthExchange {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let (id, secret) = basic {
            headers[.authorization] = ClientAuthentication(clientID: id, clientSecret: secret, method: .httpBasic).basicAuthorizationHeader
        }
        headers.append(contentsOf: extra)
        let body = FormParameters(form).encoded
        let response = try await executeRequest(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
        return OAuthExchange(response: response)
    }

    /// Office's code exchange: client_secret_basic by default.
    func redeem(
        _ code: String, redirectURI: String = TokenTestClients.officeRedirect, verifier: String? = nil,
        basic: (String, String)? = ("office", TokenTestClients.officeSecret), path: String = "/oauth2/token",
        headers: HTTPFields = [:]
    ) async throws -> OAuthExchange {
        var form: KeyValuePairs<String, String> = ["grant_type": "authorization_code", "code": code, "redirect_uri": redirectURI]
        if let verifier {
            form = ["grant_type": "authorization_code", "code": code, "redirect_uri": redirectURI, "code_verifier": verifier]
        }
        return try await postForm(path, form, basic: basic, headers: headers)
    }

    func bootstrapStatus(_ accessToken: String) async throws -> HTTPResponse.Status {
        try await executeRequest(
            uri: "/wopibootstrapper", method: .get, headers: [.authorization: "Bearer \(accessToken)"], body: nil
        ).status
    }
}

func expectNoStore(_ exchange: OAuthExchange, _ comment: Comment? = nil) {
    #expect(exchange.response.headers[.cacheControl] == "no-store", comment)
    #expect(exchange.response.headers[HTTPField.Name("Pragma")!] == "no-cache", comment)
    #expect(exchange.response.headers[.contentType] == "application/json", comment)
}
