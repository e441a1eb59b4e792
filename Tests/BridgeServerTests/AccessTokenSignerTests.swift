@testable import BridgeServer
import Foundation
import JWTKit
import SignInProtocol
import Testing

/// Our hand-built ES256 JWS must be exactly what jwt-kit (the verifier, and any relying party's library) expects.
@Suite("AccessTokenSigner")
struct AccessTokenSignerTests {
    static func claims(sub: String = "alice", clientID: String = "office", scope: String? = "wopi") -> AccessTokenClaims {
        AccessTokenClaims(
            iss: IssuerClaim(value: "https://contoso.com"), sub: SubjectClaim(value: sub),
            aud: AudienceClaim(value: "https://contoso.com"),
            exp: ExpirationClaim(value: Date(timeIntervalSince1970: 1_800_003_600)),
            iat: IssuedAtClaim(value: Date(timeIntervalSince1970: 1_800_000_000)), jti: IDClaim(value: "jti-1"),
            client_id: clientID, scope: scope)
    }

    static func decodedPart(_ token: String, _ index: Int) throws -> [String: Any] {
        let data = try #require(Data(base64URL: String(token.split(separator: ".")[index])))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func jwtKitVerifiesWhatWeSign() async throws {
        let keys = try await SigningKeySet.generate()
        let signer = AccessTokenSigner(key: keys.signingKey)
        let token = try signer.sign(Self.claims())
        #expect(token.split(separator: ".").count == 3)
        let verified = try await keys.collection.verify(token, as: AccessTokenClaims.self)
        #expect(verified == Self.claims())
        // RFC 9068 §2.1 header; RFC 7519 NumericDate as whole seconds.
        let header = try Self.decodedPart(token, 0)
        #expect(header["alg"] as? String == "ES256" && header["typ"] as? String == "at+jwt")
        #expect(header["kid"] as? String == keys.signingKey.kid)
        let payload = try Self.decodedPart(token, 1)
        #expect(payload["exp"] as? Int == 1_800_003_600 && payload["iat"] as? Int == 1_800_000_000)
        #expect(payload["aud"] as? String == "https://contoso.com")
    }

    @Test(arguments: [#"quote " and backslash \"#, "line\nbreak\u{1}", "ünïcødé 🔑", ""])
    func anyStringSurvivesTheRoundTrip(text: String) async throws {
        let keys = try await SigningKeySet.generate()
        let claims = Self.claims(sub: text, clientID: text, scope: nil)
        let token = try AccessTokenSigner(key: keys.signingKey).sign(claims)
        #expect(try await keys.collection.verify(token, as: AccessTokenClaims.self) == claims)
        #expect(try Self.decodedPart(token, 1)["scope"] == nil)
    }

    @Test func aChangedPayloadOrAnotherKeyFailsVerification() async throws {
        let keys = try await SigningKeySet.generate()
        let token = try AccessTokenSigner(key: keys.signingKey).sign(Self.claims())
        let parts = token.split(separator: ".").map(String.init)
        let forged = Base64URL.encode(Array(AccessTokenSigner.payload(Self.claims(sub: "mallory")).utf8))
        await #expect(throws: (any Error).self) {
            try await keys.collection.verify(parts[0] + "." + forged + "." + parts[2], as: AccessTokenClaims.self)
        }
        let otherKeys = try await SigningKeySet.generate()
        await #expect(throws: (any Error).self) {
            try await otherKeys.collection.verify(token, as: AccessTokenClaims.self)
        }
    }
}
