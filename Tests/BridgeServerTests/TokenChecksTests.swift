@testable import BridgeServer
import BridgeStore
import Foundation
import SignInProtocol
import Testing

/// One test per step of the token pipeline (Sources/BridgeServer/Token), on the step alone. The same rules are
/// exercised over the wire in `TokenEndpointTests`.
@Suite("Token pipeline steps")
struct TokenChecksTests {
    static let configuration = try! TokenTestClients.configuration.configuration
    static func client(_ id: String) -> AuthenticatedClient {
        let client = configuration.clients.first { $0.id == id }!
        return AuthenticatedClient(client: client, method: client.public ? "none" : "client_secret_basic")
    }
    static func code(client: String = "office", redirect: String = "https://localhost", challenge: PKCE.Challenge? = nil) -> AuthorizationCodeRecord {
        AuthorizationCodeRecord(
            digest: SecretToken().digest, grantID: GrantID("g"), clientID: client, redirectURI: redirect,
            codeChallenge: challenge?.value, codeChallengeMethod: challenge?.method.rawValue, scope: "wopi",
            issuedAt: Date(timeIntervalSince1970: 0), expiresAt: Date(timeIntervalSince1970: 60))
    }

    static func code(of body: () throws(OAuthError) -> Void) -> String? {
        do throws(OAuthError) { try body(); return nil } catch { return error.code.rawValue }
    }

    @Test func clientSecretHashComparesSHA256InConstantTime() {
        let hash = ClientSecretHash(configured: "sha256:6e15e3912e04b1b7a42a4b562c390a7054a80b3092cc2283c9e74dd9eada34b7")
        #expect(hash?.matches("office-demo-secret") == true)
        #expect(hash?.matches("office-demo-secreT") == false)
        #expect(hash?.matches("") == false)
        #expect(ClientSecretHash(configured: "$2b$12$spZMyuggXL3hVlAEWn6Ji.2/o./7RYcPQD49gPV/Me1vHSjTCvTuS") == nil)
        #expect(ClientSecretHash(configured: "sha256:6E15") == nil)
    }

    @Test func clientAuthenticatorAcceptsBasicPostAndNoneAndRefusesTheRest() throws {
        let authenticator = ClientAuthenticator(clients: Self.configuration.clients)
        let basic = ClientAuthentication(clientID: "office", clientSecret: "office-demo-secret", method: .httpBasic)
        #expect(try authenticator.authenticate(form: FormParameters(), authorization: basic.basicAuthorizationHeader).method == "client_secret_basic")
        let post = FormParameters(["client_id": "office", "client_secret": "office-demo-secret"])
        #expect(try authenticator.authenticate(form: post, authorization: nil).method == "client_secret_post")
        #expect(try authenticator.authenticate(form: FormParameters(["client_id": "partner-app"]), authorization: nil).method == "none")
        let cases: [(FormParameters, String?, String)] = [
            (post, basic.basicAuthorizationHeader, "invalid_request"),  // two methods at once
            (FormParameters(["client_id": "office", "client_secret": "wrong"]), nil, "invalid_client"),
            (FormParameters(["client_id": "office"]), nil, "invalid_client"),  // confidential without secret
            (FormParameters(["client_id": "nobody", "client_secret": "x"]), nil, "invalid_client"),
            (FormParameters(["client_id": "partner-app", "client_secret": "x"]), nil, "invalid_client"),
            (FormParameters(), nil, "invalid_client"),
            (FormParameters(), "Bearer abc", "invalid_client"),
        ]
        for (form, header, expected) in cases {
            #expect(Self.code { () throws(OAuthError) in _ = try authenticator.authenticate(form: form, authorization: header) } == expected, "\(form.encoded) \(header ?? "")")
        }
    }

    @Test func checkGrantTypeAllowedSeparatesUnsupportedFromUnauthorized() {
        let office = Self.client("office").client
        #expect(Self.code { () throws(OAuthError) in try CheckGrantTypeAllowed.check("authorization_code", for: office) } == nil)
        #expect(Self.code { () throws(OAuthError) in try CheckGrantTypeAllowed.check("client_credentials", for: office) } == "unauthorized_client")
        #expect(Self.code { () throws(OAuthError) in try CheckGrantTypeAllowed.check("password", for: office) } == "unsupported_grant_type")
        #expect(Self.code { () throws(OAuthError) in try CheckGrantTypeAllowed.check("implicit", for: office) } == "unsupported_grant_type")
        #expect(Self.code { () throws(OAuthError) in try CheckGrantTypeAllowed.check(nil, for: office) } == "invalid_request")
    }

    @Test func checkCodeIssuedToClientRefusesAnotherClientsCode() {
        #expect(Self.code { () throws(OAuthError) in try CheckCodeIssuedToClient.check(Self.code(), client: Self.client("office")) } == nil)
        #expect(Self.code { () throws(OAuthError) in try CheckCodeIssuedToClient.check(Self.code(), client: Self.client("partner-app")) } == "invalid_grant")
    }

    @Test func checkRedirectURIMatchesComparesExactStrings() {
        let code = Self.code(redirect: "https://localhost")
        #expect(Self.code { () throws(OAuthError) in try CheckRedirectURIMatches.check(code, presented: "https://localhost") } == nil)
        #expect(Self.code { () throws(OAuthError) in try CheckRedirectURIMatches.check(code, presented: "https://localhost/") } == "invalid_grant")
        #expect(Self.code { () throws(OAuthError) in try CheckRedirectURIMatches.check(code, presented: "HTTPS://localhost") } == "invalid_grant")
        #expect(Self.code { () throws(OAuthError) in try CheckRedirectURIMatches.check(code, presented: nil) } == "invalid_request")
    }

    @Test func checkPKCEUsesTheRFC7636VectorAndRefusesDowngrade() throws {
        // RFC 7636 Appendix B, verbatim.
        let challenge = try PKCE.Challenge(value: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", method: .s256)
        let withChallenge = Self.code(client: "partner-app", challenge: challenge)
        let partner = Self.client("partner-app")
        let office = Self.client("office")
        #expect(Self.code { () throws(OAuthError) in try CheckPKCE.check(withChallenge, verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", client: partner) } == nil)
        #expect(Self.code { () throws(OAuthError) in try CheckPKCE.check(withChallenge, verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXK", client: partner) } == "invalid_grant")
        #expect(Self.code { () throws(OAuthError) in try CheckPKCE.check(withChallenge, verifier: nil, client: partner) } == "invalid_grant")
        #expect(Self.code { () throws(OAuthError) in try CheckPKCE.check(withChallenge, verifier: "short", client: partner) } == "invalid_grant")
        let without = Self.code()
        #expect(Self.code { () throws(OAuthError) in try CheckPKCE.check(without, verifier: nil, client: office) } == nil)
        #expect(Self.code { () throws(OAuthError) in try CheckPKCE.check(without, verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", client: office) } == "invalid_grant")
        #expect(Self.code { () throws(OAuthError) in try CheckPKCE.check(Self.code(client: "partner-app"), verifier: nil, client: partner) } == "invalid_grant")
    }

    @Test func checkScopeNarrowingOnlyNarrows() throws {
        #expect(try CheckScopeNarrowing.check(requested: nil, granted: "wopi files") == "wopi files")
        #expect(try CheckScopeNarrowing.check(requested: "files", granted: "wopi files") == "files")
        #expect(try CheckScopeNarrowing.check(requested: "files files", granted: "wopi files") == "files")
        #expect(Self.code { () throws(OAuthError) in _ = try CheckScopeNarrowing.check(requested: "wopi admin", granted: "wopi") } == "invalid_scope")
    }

    @Test func checkSessionContextBoundsTheHeader() throws {
        #expect(try CheckSessionContext.check(nil) == nil)
        #expect(try CheckSessionContext.check("") == nil)
        #expect(try CheckSessionContext.check("xyz") == "xyz")
        #expect(Self.code { () throws(OAuthError) in _ = try CheckSessionContext.check(String(repeating: "a", count: 1025)) } == "invalid_request")
    }

    @Test func tokenEndpointPathsServeTheTkURLAndTheChallengesTokenURLOnTheSameOrigin() throws {
        let paths = TokenEndpointPaths(configuration: Self.configuration)
        #expect(paths.paths == ["/oauth2/token", "/api/oauth2/token", "/api/token/"])
        #expect(paths.foreignURLs.isEmpty)
        var other = Self.configuration
        other.office.tokenIssuanceUri = "https://login.contoso.net/token"
        #expect(TokenEndpointPaths(configuration: other).foreignURLs == ["https://login.contoso.net/token"])
        #expect(TokenEndpointPaths(configuration: other).paths == ["/oauth2/token", "/api/token/"])
    }

    @Test func presentedTokenToldApartByShape() {
        #expect(PresentedToken("a.b.c") == .accessToken("a.b.c"))
        #expect(PresentedToken(SecretToken().value).isRefresh)
        #expect(PresentedToken("a.b").isRefresh)
    }
}

extension PresentedToken {
    var isRefresh: Bool { if case .refreshToken = self { true } else { false } }
}
