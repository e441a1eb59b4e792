import BridgeStore
import Foundation
import SignInProtocol
import Testing

@testable import BridgeServer

/// Upstream ID token validation (OpenID Connect Core 1.0 §3.1.3.7): real ES256 signatures from a generated key,
/// checked by jwt-kit against its JWKS, then the claim checks with a fixed clock.
@Suite struct IDTokenValidationTests {
    static let issuer = "https://idp.example"
    static let clientID = "bridge"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let nonce = "n-0S6_WzA2Mj"

    /// The claims of a good token; each test changes one.
    static func claims(_ change: (inout [String: Any]) -> Void = { _ in }) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": issuer, "sub": "248289761001", "aud": clientID, "exp": now.timeIntervalSince1970 + 300,
            "iat": now.timeIntervalSince1970 - 5, "nonce": nonce,
        ]
        change(&claims)
        return claims
    }

    static func sign(_ claims: [String: Any], with keys: SigningKeySet) throws -> String {
        let payload = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        return try CompactJWSSigner(es256: keys.signingKey, type: "JWT").sign(payload: Array(payload))
    }

    var check: IDTokenCheck {
        IDTokenCheck(issuer: Self.issuer, clientID: Self.clientID, nonceDigest: TokenDigest(of: Self.nonce), now: Self.now)
    }

    /// Signature, then claims, as `UpstreamProvider.signIn` runs them.
    func validate(_ token: String, jwks: String, keys: RemoteKeySet = RemoteKeySet()) async throws -> String {
        let header = try IDTokenCheck.header(of: token)
        try await UpstreamProvider.verifySignature(of: token, kid: header.kid, keys: keys) {
            RemoteKeySet.Fetched(body: Array(jwks.utf8))
        }
        return try check.check(IDTokenCheck.claims(of: token))
    }

    @Test func aGoodTokenGivesItsSubject() async throws {
        let keys = try await SigningKeySet.generate()
        let token = try Self.sign(Self.claims(), with: keys)
        #expect(try await validate(token, jwks: keys.jwksJSON) == "248289761001")
    }

    @Test(arguments: [
        ("another issuer", IDTokenProblem.wrongIssuer("https://evil.example"), { @Sendable (c: inout [String: Any]) in c["iss"] = "https://evil.example" }),
        ("another audience", .wrongAudience, { c in c["aud"] = "someone-else" }),
        ("two audiences without azp", .wrongAuthorizedParty, { c in c["aud"] = [IDTokenValidationTests.clientID, "other"] }),
        ("azp of another client", .wrongAuthorizedParty, { c in c["azp"] = "other" }),
        ("expired beyond the skew", .expired, { c in c["exp"] = IDTokenValidationTests.now.timeIntervalSince1970 - 61 }),
        ("issued in the future", .issuedInTheFuture, { c in c["iat"] = IDTokenValidationTests.now.timeIntervalSince1970 + 120 }),
        // RFC 7519 §4.1.5: not accepted before nbf, beyond the leeway.
        ("not valid for an hour", .notYetValid, { c in c["nbf"] = IDTokenValidationTests.now.timeIntervalSince1970 + 3600 }),
        ("issued 11 minutes ago", .issuedTooLongAgo, { c in c["iat"] = IDTokenValidationTests.now.timeIntervalSince1970 - 660 }),
        ("another nonce", .nonceMismatch, { c in c["nonce"] = "replayed-from-elsewhere" }),
        ("no nonce", .nonceMismatch, { c in c["nonce"] = nil }),
        ("no sub", .malformed("sub is missing or longer than 255 characters"), { c in c["sub"] = nil }),
    ] as [(String, IDTokenProblem, @Sendable (inout [String: Any]) -> Void)])
    func aWrongClaimIsRefused(_ name: String, _ problem: IDTokenProblem, _ change: @Sendable (inout [String: Any]) -> Void)
        async throws
    {
        let keys = try await SigningKeySet.generate()
        let token = try Self.sign(Self.claims(change), with: keys)
        await #expect(throws: problem, "\(name)") { try await validate(token, jwks: keys.jwksJSON) }
    }

    @Test func twoAudiencesWithOurAzpAreAccepted() async throws {
        let keys = try await SigningKeySet.generate()
        let token = try Self.sign(Self.claims { $0["aud"] = [Self.clientID, "other"]; $0["azp"] = Self.clientID }, with: keys)
        #expect(try await validate(token, jwks: keys.jwksJSON) == "248289761001")
    }

    @Test func aChangedPayloadFailsTheSignature() async throws {
        let keys = try await SigningKeySet.generate()
        let parts = try Self.sign(Self.claims(), with: keys).split(separator: ".")
        let other = try Self.sign(Self.claims { $0["sub"] = "attacker" }, with: keys).split(separator: ".")
        let spliced = [parts[0], other[1], parts[2]].joined(separator: ".")
        await #expect(throws: IDTokenProblem.badSignature) { try await validate(spliced, jwks: keys.jwksJSON) }
    }

    @Test func algorithmsOtherThanES256AndRS256AreRefusedBeforeAnyKeyIsRead() throws {
        // An unsecured JWT (RFC 7519 §6) has an empty signature: no compact JWS at all for the one JWT decoder.
        let none = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Array("{}".utf8)) + "."
        #expect(throws: IDTokenProblem.malformed("not a compact JWS")) { try IDTokenCheck.header(of: none) }
        let noneSigned = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + ".e30.sig"
        #expect(throws: IDTokenProblem.unsupportedAlgorithm("none")) { try IDTokenCheck.header(of: noneSigned) }
        let hs = Base64URL.encode(Array(#"{"alg":"HS256","kid":"k"}"#.utf8)) + ".e30.sig"
        #expect(throws: IDTokenProblem.unsupportedAlgorithm("HS256")) { try IDTokenCheck.header(of: hs) }
        #expect(throws: IDTokenProblem.malformed("not a compact JWS")) { try IDTokenCheck.header(of: "a.b") }
    }

    /// RFC 7515 §4.1.11: an ID token naming a critical extension is rejected, as every JWS this server accepts.
    @Test func anIDTokenWithCritIsRefused() {
        let crit = Base64URL.encode(Array(#"{"alg":"ES256","kid":"k","crit":["urn:example:ext"]}"#.utf8)) + ".e30.sig"
        #expect(throws: IDTokenProblem.self) { try IDTokenCheck.header(of: crit) }
        #expect((try? IDTokenCheck.header(of: Base64URL.encode(Array(#"{"alg":"ES256","kid":"k"}"#.utf8)) + ".e30.sig"))?.kid == "k")
    }

    @Test func anUnknownKidFetchesTheJWKSOnceMore() async throws {
        let old = try await SigningKeySet.generate()
        let rotated = try await SigningKeySet.generate()
        let keys = RemoteKeySet(policy: KeySetCachePolicy(floor: .zero, unknownKeyInterval: .zero))
        let served = JWKSServed(old.jwksJSON)
        _ = try await validateServed(Self.sign(Self.claims(), with: old), served: served, keys: keys)
        #expect(await keys.fetches == 1)
        // The provider rotates: a token with the new kid makes one fetch, which finds it.
        served.document = rotated.jwksJSON
        #expect(try await validateServed(Self.sign(Self.claims(), with: rotated), served: served, keys: keys) == "248289761001")
        #expect(await keys.fetches == 2)
        // A known kid fetches nothing.
        _ = try await validateServed(Self.sign(Self.claims(), with: rotated), served: served, keys: keys)
        #expect(await keys.fetches == 2)
    }

    @Test func unknownKidsDoNotFetchMoreOftenThanTheMinimumInterval() async throws {
        let known = try await SigningKeySet.generate()
        let stranger = try await SigningKeySet.generate()
        let keys = RemoteKeySet(policy: KeySetCachePolicy(floor: .seconds(3600), unknownKeyInterval: .seconds(3600)))
        let served = JWKSServed(known.jwksJSON)
        _ = try await validateServed(Self.sign(Self.claims(), with: known), served: served, keys: keys)
        // Within the interval the provider may have rotated since: unreachable for now (ask again), never a fetch.
        for _ in 0..<3 {
            await #expect(throws: UpstreamFailure.self) {
                try await validateServed(Self.sign(Self.claims(), with: stranger), served: served, keys: keys)
            }
        }
        #expect(await keys.fetches == 1)
    }

    func validateServed(_ token: String, served: JWKSServed, keys: RemoteKeySet) async throws -> String {
        let header = try IDTokenCheck.header(of: token)
        try await UpstreamProvider.verifySignature(of: token, kid: header.kid, keys: keys) {
            RemoteKeySet.Fetched(body: Array(served.document.utf8))
        }
        return try check.check(IDTokenCheck.claims(of: token))
    }
}

/// The JWKS a provider serves now (changed by the test to rotate keys).
final class JWKSServed: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String
    init(_ value: String) { self.value = value }
    var document: String {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
