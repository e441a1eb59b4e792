@testable import BridgeServer
import Foundation
import SignInProtocol
import Testing

/// One test per check (positive and negative case), without a socket: the checks are plain values.
@Suite("Authorize checks")
struct AuthorizeChecksTests {
    static let configuration = try! ConfigurationLoader(environment: [:]).load(yaml: AuthorizeFixture.yaml).configuration

    static func client(_ id: String) -> BridgeConfiguration.Client {
        configuration.clients.first { $0.id == id }!
    }

    static func draft(_ query: String, client id: String = "office") throws -> AuthorizationDraft {
        let client = client(id)
        return AuthorizationDraft(
            client: client, redirectURI: client.redirectUris[0], request: try AuthorizationRequest.decode(query: query))
    }

    @Test func checkClientFindsRegisteredClientsAndRefusesOthers() throws {
        let check = CheckClient(clients: Self.configuration.clients)
        #expect(try check.client(in: FormParameters.decode("client_id=office")).id == "office")
        #expect(throws: OAuthError(.invalidClient, description: "client_id is not a registered client")) {
            try check.client(in: FormParameters.decode("client_id=nobody"))
        }
        #expect(throws: OAuthError.invalidRequest("required parameter 'client_id' is missing")) {
            try check.client(in: FormParameters.decode("response_type=code"))
        }
        #expect(throws: OAuthError.invalidRequest("parameter 'client_id' appears more than once")) {
            try check.client(in: FormParameters.decode("client_id=office&client_id=robot"))
        }
    }

    @Test func checkRedirectURIMatchesExactlyWithTheLoopbackPortExemptionForNativeClients() throws {
        let check = CheckRedirectURI()
        let office = Self.client("office")
        let partner = Self.client("partner-app")
        #expect(try check.redirectURI(for: office, in: FormParameters.decode("redirect_uri=https%3A%2F%2Flocalhost")) == "https://localhost")
        // Only one registered: may be left out (RFC 6749 §3.1.2.3).
        #expect(try check.redirectURI(for: office, in: FormParameters.decode("client_id=office")) == "https://localhost")
        #expect(try check.redirectURI(for: partner, in: FormParameters.decode("redirect_uri=http%3A%2F%2F127.0.0.1%3A51234%2Fcallback")) == "http://127.0.0.1:51234/callback")
        for bad in ["https%3A%2F%2Flocalhost%2F", "https%3A%2F%2Fevil.example", "HTTPS%3A%2F%2Flocalhost", "https%3A%2F%2Flocalhost%3A8443"] {
            #expect(throws: OAuthError.self) { try check.redirectURI(for: office, in: FormParameters.decode("redirect_uri=\(bad)")) }
        }
        // Several registered and none named: cannot choose.
        #expect(throws: OAuthError.self) { try check.redirectURI(for: partner, in: FormParameters.decode("client_id=partner-app")) }
        // The port exemption is for native clients only.
        #expect(throws: OAuthError.self) {
            try check.redirectURI(for: office, in: FormParameters.decode("redirect_uri=http%3A%2F%2F127.0.0.1%3A5%2Fcallback"))
        }
        #expect(throws: OAuthError.self) {
            try check.redirectURI(for: office, in: FormParameters.decode("redirect_uri=https%3A%2F%2Flocalhost&redirect_uri=https%3A%2F%2Flocalhost"))
        }
    }

    @Test func checkParametersRefusesDuplicatesIncludingOfficeCaseVariants() throws {
        let check = CheckParameters()
        let request = try check.request(from: FormParameters.decode("client_id=office&response_type=code&Build=16.1&PLATFORM=iOS&rs=enUS"))
        #expect(request.build == "16.1" && request.platform == "iOS" && request.culture == "enUS")
        #expect(throws: OAuthError.invalidRequest("parameter 'state' appears more than once")) {
            try check.request(from: FormParameters.decode("client_id=office&response_type=code&state=a&state=b"))
        }
        #expect(throws: OAuthError.invalidRequest("parameter 'build' appears more than once")) {
            try check.request(from: FormParameters.decode("client_id=office&response_type=code&build=1&Build=2"))
        }
        #expect(CheckParameters.echoableState(in: try FormParameters.decode("state=a&state=b")) == nil)
        #expect(CheckParameters.echoableState(in: try FormParameters.decode("state=a")) == "a")
    }

    @Test func checkResponseTypeAcceptsOnlyCodeForClientsAllowedTheGrant() throws {
        var draft = try Self.draft("client_id=office&response_type=code")
        try CheckResponseType().check(&draft)
        var implicit = try Self.draft("client_id=office&response_type=token")
        #expect(throws: OAuthError(.unsupportedResponseType, description: "response_type is not supported; use code")) {
            try CheckResponseType().check(&implicit)
        }
        var robot = try Self.draft("client_id=robot&response_type=code", client: "robot")
        #expect(throws: OAuthError(.unauthorizedClient, description: "this client may not use the authorization code grant")) {
            try CheckResponseType().check(&robot)
        }
    }

    @Test func checkStateLimitsItsSize() throws {
        var draft = try Self.draft("client_id=office&response_type=code&state=" + String(repeating: "s", count: 2048))
        try CheckState().check(&draft)
        var long = try Self.draft("client_id=office&response_type=code&state=" + String(repeating: "s", count: 2049))
        #expect(throws: OAuthError.self) { try CheckState().check(&long) }
    }

    @Test func checkScopeDefaultsToTheClientsScopesAndRefusesOthers() throws {
        var none = try Self.draft("client_id=office&response_type=code")
        try CheckScope().check(&none)
        #expect(none.grantedScope == "wopi")
        var repeated = try Self.draft("client_id=office&response_type=code&scope=wopi%20wopi")
        try CheckScope().check(&repeated)
        #expect(repeated.grantedScope == "wopi")
        var other = try Self.draft("client_id=office&response_type=code&scope=wopi%20admin")
        #expect(throws: OAuthError(.invalidScope, description: "scope asks for a value this client may not request")) {
            try CheckScope().check(&other)
        }
    }

    /// RFC 6749 §3.3's documented default, which never adds openid (OpenID Connect Core §3.1.2.1).
    @Test func aRequestWithoutScopeGetsTheClientsDefaultWithoutOpenID() throws {
        var client = Self.client("office")
        func granted(_ query: String = "") throws -> String {
            var draft = AuthorizationDraft(
                client: client, redirectURI: client.redirectUris[0],
                request: try AuthorizationRequest.decode(query: "client_id=office&response_type=code" + query))
            try CheckScope().check(&draft)
            return draft.grantedScope
        }
        client.scopes = ["openid", "profile", "wopi"]
        #expect(client.defaultScope == ["profile", "wopi"])
        #expect(try granted() == "profile wopi")
        client.defaultScopes = ["wopi"]
        #expect(try granted() == "wopi")
        client.scopes = ["openid"]
        client.defaultScopes = nil
        #expect(throws: OAuthError(.invalidScope, description: "scope is required for this client")) { try granted() }
        // Asked for, openid is granted as before.
        #expect(try granted("&scope=openid") == "openid")
    }

    @Test func checkPKCEChallengeRequiresS256ForPublicClientsAndRefusesPlain() throws {
        let pkce = CheckPKCEChallenge(allowPlain: false)
        var good = try Self.draft(
            "client_id=partner-app&response_type=code&code_challenge=\(AuthorizeFixture.challenge)&code_challenge_method=S256",
            client: "partner-app")
        try pkce.check(&good)
        #expect(good.pkce?.value == AuthorizeFixture.challenge && good.pkce?.method == .s256)
        var missing = try Self.draft("client_id=partner-app&response_type=code", client: "partner-app")
        #expect(throws: OAuthError(.invalidRequest, description: "code_challenge is required (PKCE, RFC 7636)")) {
            try pkce.check(&missing)
        }
        // No method means plain (RFC 7636 §4.3), refused by default.
        var plain = try Self.draft(
            "client_id=partner-app&response_type=code&code_challenge=\(AuthorizeFixture.verifier)", client: "partner-app")
        #expect(throws: OAuthError(.invalidRequest, description: "code_challenge_method is not supported; use S256")) {
            try pkce.check(&plain)
        }
        try CheckPKCEChallenge(allowPlain: true).check(&plain)
        // Confidential clients (Office) may go without.
        var office = try Self.draft("client_id=office&response_type=code")
        try pkce.check(&office)
        #expect(office.pkce == nil)
    }

    @Test func checkOfficeParametersAcceptsWhatOfficeSendsAndRefusesGarbage() throws {
        var office = try Self.draft("client_id=office&response_type=code&rs=en-US&build=16.0.1234&platform=iOS")
        try CheckOfficeParameters().check(&office)
        var early = try Self.draft("client_id=office&response_type=code")
        try CheckOfficeParameters().check(&early)
        var bad = try Self.draft("client_id=office&response_type=code&Platform=%3Cscript%3E")
        #expect(throws: OAuthError.invalidRequest("parameter 'platform' is malformed")) {
            try CheckOfficeParameters().check(&bad)
        }
    }

    @Test func pageLanguageFollowsOfficeCultureThenAcceptLanguageThenEnglish() {
        #expect(PageLanguage.negotiate(culture: "nbNO", acceptLanguage: "en") == .nb)
        #expect(PageLanguage.negotiate(culture: "en-US", acceptLanguage: "nb") == .en)
        #expect(PageLanguage.negotiate(culture: "fr-FR", acceptLanguage: "de;q=1, nb-NO;q=0.8, en;q=0.5") == .nb)
        #expect(PageLanguage.negotiate(culture: nil, acceptLanguage: "nb;q=0, en") == .en)
        #expect(PageLanguage.negotiate(culture: nil, acceptLanguage: "no") == .nb)
        #expect(PageLanguage.negotiate(culture: nil, acceptLanguage: "fr, de") == .en)
        #expect(PageLanguage.negotiate(culture: nil, acceptLanguage: nil) == .en)
    }

    @Test func formTargetIsTheRedirectOriginOrScheme() {
        #expect(PageRenderer.formTarget(for: "https://localhost") == "https://localhost")
        #expect(PageRenderer.formTarget(for: "http://127.0.0.1:51234/callback") == "http://127.0.0.1:51234")
        #expect(PageRenderer.formTarget(for: "com.example.partner:/oauth2redirect") == "com.example.partner:")
        #expect(PageRenderer.formTarget(for: "no-colon") == nil)
    }

    /// OpenID Connect Core §3.1.2.1: nonce kept for openid requests, required where the client registered
    /// requireNonce, bounded in length; ignored for plain OAuth.
    @Test func checkNonceKeepsBoundsAndRequiresIt() throws {
        func draft(_ query: String, requireNonce: Bool = false) throws -> AuthorizationDraft {
            var draft = try Self.draft("client_id=partner-app&response_type=code&" + query, client: "partner-app")
            var client = draft.client
            client.requireNonce = requireNonce
            draft = AuthorizationDraft(client: client, redirectURI: draft.redirectURI, request: draft.request)
            draft.grantedScope = draft.request.scope ?? ""
            return draft
        }
        var kept = try draft("scope=openid&nonce=n-0S6")
        try CheckNonce().check(&kept)
        #expect(kept.nonce == "n-0S6")
        var plainOAuth = try draft("scope=wopi&nonce=n-0S6")
        try CheckNonce().check(&plainOAuth)
        #expect(plainOAuth.nonce == nil)
        var missing = try draft("scope=openid", requireNonce: true)
        #expect(throws: OAuthError.self) { try CheckNonce().check(&missing) }
        var long = try draft("scope=openid&nonce=" + String(repeating: "n", count: CheckNonce.maxLength + 1))
        #expect(throws: OAuthError(.invalidRequest, description: "nonce is longer than 255 bytes")) { try CheckNonce().check(&long) }
    }

    /// Vipps Login's app-to-app flow: the callback registered exactly, state and redirect_uri required.
    @Test func checkAppToAppMatchesTheCallbackExactly() throws {
        func draft(_ query: String) throws -> AuthorizationDraft {
            let base = try Self.draft(
                "client_id=partner-app&response_type=code&redirect_uri=com.example.partner%3A%2Foauth2redirect&" + query,
                client: "partner-app")
            var client = base.client
            client.appCallbackUris = ["com.example.partner:/app-callback"]
            return AuthorizationDraft(client: client, redirectURI: base.redirectURI, request: base.request)
        }
        var good = try draft("requested_flow=app_to_app&state=s&app_callback_uri=com.example.partner%3A%2Fapp-callback")
        try CheckAppToApp().check(&good)
        #expect(good.appCallbackURI == "com.example.partner:/app-callback")
        for near in ["com.example.partner%3A%2Fapp-callback%2F", "com.example.partner%3A%2FAPP-callback", "com.example.partner%3A%2F%2Fapp-callback"] {
            var refused = try draft("requested_flow=app_to_app&state=s&app_callback_uri=" + near)
            #expect(throws: OAuthError.self, "\(near)") { try CheckAppToApp().check(&refused) }
        }
        var noState = try draft("requested_flow=app_to_app&app_callback_uri=com.example.partner%3A%2Fapp-callback")
        #expect(throws: OAuthError(.invalidRequest, description: "requested_flow=app_to_app requires state")) {
            try CheckAppToApp().check(&noState)
        }
        var otherFlow = try draft("requested_flow=app_to_app_v2&state=s")
        #expect(throws: OAuthError(.invalidRequest, description: "requested_flow is not supported")) {
            try CheckAppToApp().check(&otherFlow)
        }
    }
}
