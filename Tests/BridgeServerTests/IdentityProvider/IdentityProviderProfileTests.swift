@testable import BridgeServer
import Foundation
import SignInProtocol
import Testing

/// Each profile against tokens shaped as its provider's public docs show them.
struct IdentityProviderProfileTests {
    func settings(_ yaml: String) throws -> IdentityProviderSettings {
        try #require(
            try ConfigurationLoader(environment: [:]).load(yaml: IdentityProviderConfigurationTests.yaml(yaml)).configuration
                .identityProvider)
    }

    func claims(_ json: String) throws -> [String: ClaimValue] {
        try JSONDecoder().decode([String: ClaimValue].self, from: Data(json.utf8))
    }

    /// The v2.0 access token of Microsoft identity platform's "Access tokens" page (claims as shown there).
    static let entraV2 = """
        {"aud":"6e74172b-be56-4843-9ff4-e66a39bb12e3","iss":"https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0",
        "iat":1537231048,"nbf":1537231048,"exp":1537234948,"aio":"AXQAi/8IAAAAtAaZLo3ChMif6KOnttRB7eBq4/DccQzjcJGxPYy/C3jDaNGxXd6wNIIVGRghNRnwJ1lOcAnNZcjvkoyrFxCttv33140RioOFJ4bCCGVuoCag1uOTT22222gHwLPYQ/uf79QX+0KIijdrmp69RctzmQ==",
        "azp":"6e74172b-be56-4843-9ff4-e66a39bb12e3","azpacr":"0","name":"Abe Lincoln","oid":"690222be-ff1a-4d56-abd1-7e4f7d38e474",
        "preferred_username":"abeli@microsoft.com","rh":"I","scp":"access_as_user","sub":"HKZpfaHyWadeOouYlitjrI-KffTm222X5rrV3xDqfKQ",
        "tid":"72f988bf-86f1-41af-91ab-2d7cd011db47","uti":"fqiBqXLPj0eQa82S-IYFAA","ver":"2.0"}
        """

    @Test func entraMapsTenantAndObjectIdAndAcceptsBothIssuerForms() throws {
        let check = ExternalClaimsCheck(settings: try settings("""
              issuer: https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0
              audience: 6e74172b-be56-4843-9ff4-e66a39bb12e3
              profile: entra
              requiredScope: access_as_user
            """))
        let now = Date(timeIntervalSince1970: 1_537_231_100)
        let identity = try check.check(jwt: try claims(Self.entraV2), at: now)
        #expect(identity.userId == "72f988bf-86f1-41af-91ab-2d7cd011db47:690222be-ff1a-4d56-abd1-7e4f7d38e474")
        #expect(identity.signInName == "abeli@microsoft.com")
        #expect(identity.friendlyName == "Abe Lincoln")
        #expect(identity.usableUntil == Date(timeIntervalSince1970: 1_537_234_948 + 60))
        // v1 tokens of the same tenant (`accessTokenAcceptedVersion` null) say sts.windows.net.
        let v1 = Self.entraV2.replacingOccurrences(
            of: "https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0",
            with: "https://sts.windows.net/72f988bf-86f1-41af-91ab-2d7cd011db47/")
        #expect(try check.check(jwt: try claims(v1), at: now).userId.hasSuffix("690222be-ff1a-4d56-abd1-7e4f7d38e474"))
        // Another tenant's token is not this tenant's, whatever its iss form.
        let other = v1.replacingOccurrences(of: "72f988bf-86f1-41af-91ab-2d7cd011db47", with: "00000000-0000-0000-0000-000000000001")
        #expect(throws: ExternalTokenRejection.wrongIssuer) { try check.check(jwt: try claims(other), at: now) }
    }

    @Test func entraMultiTenantSubstitutesTheTokensTenant() throws {
        let check = ExternalClaimsCheck(settings: try settings("""
              issuer: https://login.microsoftonline.com/organizations/v2.0
              audience: 6e74172b-be56-4843-9ff4-e66a39bb12e3
              profile: entra
            """))
        let now = Date(timeIntervalSince1970: 1_537_231_100)
        #expect(try check.check(jwt: try claims(Self.entraV2), at: now).signInName == "abeli@microsoft.com")
        let wrongTenant = Self.entraV2.replacingOccurrences(
            of: #""tid":"72f988bf-86f1-41af-91ab-2d7cd011db47""#, with: #""tid":"00000000-0000-0000-0000-000000000001""#)
        #expect(throws: ExternalTokenRejection.wrongIssuer) { try check.check(jwt: try claims(wrongTenant), at: now) }
        #expect(IdentityProviderProfile.entra.acceptsDiscoveredIssuer(
            "https://login.microsoftonline.com/{tenantid}/v2.0", configured: "https://login.microsoftonline.com/organizations/v2.0"))
        #expect(!IdentityProviderProfile.keycloak.acceptsDiscoveredIssuer("https://evil.example.com", configured: "https://idp.example.com"))
    }

    /// Shaped as a Keycloak access token with an audience mapper: `aud` an array with `account`, payload `typ` `Bearer`.
    static let keycloak = """
        {"exp":1800000300,"iat":1800000000,"jti":"4a1c6a6b-1a3e-4f5e-9d3a-2b1d7d0f5c11","iss":"https://idp.example.com/realms/host",
        "aud":["signin-bridge","account"],"sub":"f1b2c3d4-0000-4000-8000-000000000001","typ":"Bearer","azp":"office",
        "session_state":"b3c5","acr":"1","scope":"openid wopi profile email","sid":"b3c5","email_verified":true,
        "name":"Alice Example","preferred_username":"alice","given_name":"Alice","family_name":"Example","email":"alice@example.com"}
        """

    @Test func keycloakAcceptsAnAudienceArrayAndRefusesItsIDTokens() throws {
        let check = ExternalClaimsCheck(settings: try settings("""
              issuer: https://idp.example.com/realms/host
              audience: signin-bridge
              profile: keycloak
              requiredScope: wopi
            """))
        let now = Date(timeIntervalSince1970: 1_800_000_010)
        let identity = try check.check(jwt: try claims(Self.keycloak), at: now)
        #expect(identity.userId == "f1b2c3d4-0000-4000-8000-000000000001")
        #expect(identity.signInName == "alice")
        #expect(identity.friendlyName == "Alice Example")
        let idToken = Self.keycloak.replacingOccurrences(of: #""typ":"Bearer""#, with: #""typ":"ID""#)
        #expect(throws: ExternalTokenRejection.wrongTokenType) { try check.check(jwt: try claims(idToken), at: now) }
        let noScope = Self.keycloak.replacingOccurrences(of: "openid wopi profile email", with: "openid profile")
        #expect(throws: ExternalTokenRejection.missingScope) { try check.check(jwt: try claims(noScope), at: now) }
        let otherAudience = Self.keycloak.replacingOccurrences(of: #"["signin-bridge","account"]"#, with: #"["account"]"#)
        #expect(throws: ExternalTokenRejection.wrongAudience) { try check.check(jwt: try claims(otherAudience), at: now) }
        // exp + 60 s of leeway, then refused.
        #expect(throws: ExternalTokenRejection.time(.expired)) {
            try check.check(jwt: try claims(Self.keycloak), at: Date(timeIntervalSince1970: 1_800_000_360))
        }
        #expect(try check.check(jwt: try claims(Self.keycloak), at: Date(timeIntervalSince1970: 1_800_000_350)).signInName == "alice")
    }

    /// Auth0's "RFC 9068 profile sample token" (Auth0 docs, "Access Token Profiles"), verbatim: no profile claims, so the names
    /// come from UserInfo.
    static let auth0 = """
        {"iss":"https://my-domain.auth0.com/","sub":"auth0|123456","aud":["https://example.com/health-api","https://my-domain.auth0.com/userinfo"],
        "client_id":"my_client_id","exp":1311281970,"iat":1311280970,"jti":"73WakrfVbNJBaAmhQtEeDv","scope":"openid profile read:patients read:admin",
        "my_custom_claim":"my_custom_value"}
        """

    @Test func auth0TakesItsNamesFromUserInfo() throws {
        let check = ExternalClaimsCheck(settings: try settings("""
              issuer: https://my-domain.auth0.com/
              audience: https://example.com/health-api
              profile: auth0
              requiredScope: read:patients
            """))
        let identity = try check.check(jwt: try claims(Self.auth0), at: Date(timeIntervalSince1970: 1_311_281_000))
        #expect(identity.userId == "auth0|123456")
        #expect(identity.signInName == nil)
        let completed = check.completed(identity, with: try claims("""
            {"sub":"auth0|123456","nickname":"janedoe","name":"Jane Doe","email":"janedoe@example.com","email_verified":true}
            """))
        #expect(completed.signInName == "janedoe@example.com")
        #expect(completed.friendlyName == "Jane Doe")
    }

    @Test func theHeaderTypesEachProfileTakes() throws {
        let jws = TestJWS()
        func kid(_ typ: String?, _ profile: IdentityProviderProfile) throws(ExternalTokenRejection) -> String? {
            try ExternalTokenVerifier.jwsHeader(of: jws.sign(claims: "{}", header: ["typ": typ ?? ""]), profile: profile)?.value
        }
        for typ in ["at+jwt", "application/at+jwt", "JWT", nil] { #expect(try kid(typ, .generic) == "test-key-1") }
        #expect(throws: ExternalTokenRejection.wrongTokenType) { try kid("dpop+jwt", .generic) }
        #expect(try kid("JWT", .keycloak) == "test-key-1")
        #expect(try kid("at+jwt", .keycloak) == "test-key-1")
        #expect(throws: ExternalTokenRejection.wrongTokenType) { try kid(nil, .keycloak) }
        #expect(throws: ExternalTokenRejection.wrongTokenType) { try kid("at+jwt", .entra) }
        #expect(try kid("at+jwt", .auth0) == "test-key-1")
        // An opaque token is no JWS: nil, for introspection.
        #expect(try ExternalTokenVerifier.jwsHeader(of: "2YotnFZFEjr1zCsicMWpAA", profile: .generic) == nil)
    }

    @Test func scopeIsReadFromScopeOrScp() throws {
        #expect(ExternalClaimsCheck.scopes(of: try claims(#"{"scope":"a wopi"}"#)) == ["a", "wopi"])
        #expect(ExternalClaimsCheck.scopes(of: try claims(#"{"scp":"wopi b"}"#)) == ["wopi", "b"])
        #expect(ExternalClaimsCheck.scopes(of: try claims(#"{"scp":["wopi","c"]}"#)) == ["wopi", "c"])
    }

    @Test func introspectionAnswersAreCheckedWhereTheyCarryMembers() throws {
        let check = ExternalClaimsCheck(settings: try settings("""
              issuer: https://idp.example.com
              introspection: {clientId: c, clientSecret: s}
              requiredScope: wopi
            """))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        // RFC 7662 §2.2's example answer, with our scope.
        let active = try claims("""
            {"active":true,"client_id":"l238j323ds-23ij4","username":"jdoe","scope":"read write dolphin wopi","sub":"Z5O3upPC88QrAjx00dis",
            "aud":"https://protected.example.net/resource","iss":"https://idp.example.com","exp":1800000600,"iat":1799999000}
            """)
        #expect(try check.check(introspected: active, at: now).userId == "Z5O3upPC88QrAjx00dis")
        #expect(throws: ExternalTokenRejection.inactive) { try check.check(introspected: try claims(#"{"active":false}"#), at: now) }
    }
}
