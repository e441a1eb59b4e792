import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

@testable import BridgeServer

/// Each provider's profile end to end: a token shaped as that provider's public docs show it (the claims of
/// `IdentityProviderProfileTests`), signed by a key the local provider's JWKS serves, through `/wopibootstrapper`
/// over real sockets. Only `iss` (the local provider) and the times (the test clock) differ from the docs' samples.
struct SignedProfileTokensTests {
    struct Case: Sendable, CustomStringConvertible {
        var profile: String
        var claims: String
        var typ: String
        var audience: String
        var requiredScope: String
        var userId: String
        var signInName: String
        var description: String { profile }
    }

    static let cases = [
        Case(
            profile: "entra", claims: IdentityProviderProfileTests.entraV2, typ: "JWT",
            audience: "6e74172b-be56-4843-9ff4-e66a39bb12e3", requiredScope: "access_as_user",
            userId: "72f988bf-86f1-41af-91ab-2d7cd011db47:690222be-ff1a-4d56-abd1-7e4f7d38e474",
            signInName: "abeli@microsoft.com"),
        Case(
            profile: "keycloak", claims: IdentityProviderProfileTests.keycloak, typ: "JWT", audience: "signin-bridge",
            requiredScope: "wopi", userId: "f1b2c3d4-0000-4000-8000-000000000001", signInName: "alice"),
        // Auth0's sample carries no names: they come from the provider's UserInfo (served for any token here), used
        // only for the token's own subject, so the sign-in name falls back to the user id.
        Case(
            profile: "auth0", claims: IdentityProviderProfileTests.auth0, typ: "at+jwt",
            audience: "https://example.com/health-api", requiredScope: "read:patients", userId: "auth0|123456",
            signInName: "auth0|123456"),
    ]

    /// The sample's claims with `iss` the local provider and `iat`/`nbf`/`exp` moved to now (the same lifetime).
    static func reissued(_ claims: String, issuer: String, now: Int) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(claims.utf8)) as? [String: Any])
        let lifetime = ((object["exp"] as? Int) ?? 0) - ((object["iat"] as? Int) ?? 0)
        object["iss"] = issuer
        object["iat"] = now
        object["exp"] = now + max(lifetime, 300)
        if object["nbf"] != nil { object["nbf"] = now }
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test(arguments: cases)
    func aProfilesSignedTokenBootstrapsItsUser(_ sample: Case) async throws {
        let provider = FakeIdentityProvider()
        try await provider.application().test(.live) { idp in
            let port = try #require(idp.port)
            let origin = "http://127.0.0.1:\(port)"
            let bridge = try await TestBridge.make(yaml: TestBridge.yaml + """

                identityProvider:
                  issuer: \(origin)
                  audience: "\(sample.audience)"
                  profile: \(sample.profile)
                  requiredScope: "\(sample.requiredScope)"
                  allowInsecureHTTP: true
                  authorizationEndpoint: \(origin)/authorize
                  tokenEndpoint: \(origin)/token
                """)
            let claims = try Self.reissued(sample.claims, issuer: origin, now: Int(bridge.clock.now.timeIntervalSince1970))
            let token = provider.jws.sign(claims: claims, header: ["typ": sample.typ])
            try await bridge.app.makeApplication().test(.live) { client in
                let response = try await ExternalBootstrapTests.bootstrap(client, token)
                #expect(response.status == .ok, "\(sample.profile): \(String(buffer: response.body))")
                let body = try BootstrapResponse.decode(Data(buffer: response.body))
                #expect(body.bootstrap.userId == sample.userId)
                #expect(body.bootstrap.signInName == sample.signInName)
                // The same claims under a key the provider never published: refused, whatever the profile.
                let forged = TestJWS().sign(claims: claims, header: ["typ": sample.typ])
                let refused = try await ExternalBootstrapTests.bootstrap(client, forged)
                #expect(refused.status == .unauthorized)
            }
        }
    }
}
