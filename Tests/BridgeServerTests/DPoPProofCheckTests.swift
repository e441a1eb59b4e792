import Crypto
import CryptoExtras
import Foundation
import Testing
@testable import BridgeServer
@testable import SignInProtocol

/// Makes proofs the way a client does (RFC 9449 §4.2), with one thing changed at a time.
struct DPoPProofMaker {
    let key: P256.Signing.PrivateKey

    init(key: P256.Signing.PrivateKey = P256.Signing.PrivateKey()) { self.key = key }

    var publicJWK: [String: String] {
        let point = Array(key.publicKey.x963Representation.dropFirst())
        return ["kty": "EC", "crv": "P-256", "x": Base64URL.encode(point[..<32]), "y": Base64URL.encode(point[32...])]
    }

    func proof(
        typ: String = "dpop+jwt", alg: String = "ES256", jwk: [String: String]? = nil, method: String = "POST",
        uri: String = "https://as.example/oauth2/token", iat: Date = Date(timeIntervalSince1970: 1_800_000_000),
        jti: String = UUID().uuidString, ath: String? = nil, nonce: String? = nil, extraHeader: [String: Any] = [:],
        extraClaims: [String: Any] = [:], sign: (([UInt8]) -> [UInt8])? = nil
    ) -> String {
        let header: [String: Any] = ["typ": typ, "alg": alg, "jwk": jwk ?? publicJWK].merging(extraHeader) { $1 }
        var claims: [String: Any] = ["jti": jti, "htm": method, "htu": uri, "iat": Int(iat.timeIntervalSince1970)]
            .merging(extraClaims) { $1 }
        if let ath { claims["ath"] = ath }
        if let nonce { claims["nonce"] = nonce }
        func part(_ object: [String: Any]) -> String {
            Base64URL.encode(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        }
        let input = part(header) + "." + part(claims)
        let signature = sign?(Array(input.utf8)) ?? Array(try! key.signature(for: Array(input.utf8)).rawRepresentation)
        return input + "." + Base64URL.encode(signature)
    }
}

@Suite struct DPoPProofCheckTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    /// RFC 9449 §4.1, Figure 2.
    static let rfcProof =
        "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjYyNjE2fQ.2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37xRZT3Lg"
    static let tokenRequest = DPoPRequest(method: "POST", uri: "https://as.example/oauth2/token")
    let maker = DPoPProofMaker()
    let check = DPoPProofCheck()

    func refusal(_ proof: String, _ request: DPoPRequest = Self.tokenRequest, check: DPoPProofCheck? = nil) -> DPoPRefusal? {
        do {
            _ = try (check ?? self.check).check(proof, for: request, at: Self.now)
            return nil
        } catch {
            return error
        }
    }

    func member(_ proof: String, _ request: DPoPRequest = Self.tokenRequest) -> String? {
        switch refusal(proof, request) {
        case .invalidProof(.invalid(let member, _))?, .invalidProof(.missing(let member))?: member
        default: nil
        }
    }

    @Test func theRFCExampleProofPassesAtItsOwnTime() throws {
        let verified = try check.check(
            Self.rfcProof, for: DPoPRequest(method: "POST", uri: "https://server.example.com/token"),
            at: Date(timeIntervalSince1970: 1_562_262_616 + 10))
        #expect(verified.thumbprint == "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
        #expect(verified.id == "-BwC3ESc6acc2lTc")
        #expect(verified.replayWindowEnds == Date(timeIntervalSince1970: 1_562_262_616 + 300))
    }

    @Test func aGoodProofBindsItsKeyThumbprint() throws {
        let verified = try check.check(maker.proof(jti: "one"), for: Self.tokenRequest, at: Self.now)
        let jwk = maker.publicJWK.mapValues { JSONValue.string($0) }
        #expect(verified.thumbprint == (try JWKThumbprint.sha256(of: jwk)))
        #expect(verified.id == "one")
    }

    @Test func eachBrokenPartIsRefusedWithTheMemberItConcerns() {
        #expect(member(maker.proof(typ: "JWT")) == "typ")
        #expect(member(maker.proof(alg: "none")) == "alg")
        #expect(member(maker.proof(alg: "HS256")) == "alg")
        #expect(member(maker.proof(alg: "ES384")) == "jwk")  // a P-256 key cannot make an ES384 proof
        var withPrivate = maker.publicJWK
        withPrivate["d"] = Base64URL.encode(Array(maker.key.rawRepresentation))
        #expect(member(maker.proof(jwk: withPrivate)) == "jwk")
        #expect(member(maker.proof(method: "GET")) == "htm")
        #expect(member(maker.proof(uri: "https://as.example/oauth2/other")) == "htu")
        #expect(member(maker.proof(uri: "https://evil.example/oauth2/token")) == "htu")
        #expect(member(maker.proof(iat: Self.now.addingTimeInterval(-301))) == "iat")
        #expect(member(maker.proof(iat: Self.now.addingTimeInterval(301))) == "iat")
        #expect(member(maker.proof(sign: { _ in Array(repeating: 7, count: 64) })) == "signature")
        let other = DPoPProofMaker()
        #expect(member(maker.proof(jwk: other.publicJWK)) == "signature")
    }

    /// RFC 7515 §4.1.11: a JWS naming a critical extension the recipient does not understand MUST be rejected (this
    /// server understands none), and `crit` must be a non-empty array of names.
    @Test func aProofWithCritIsRefused() {
        #expect(member(maker.proof(extraHeader: ["crit": ["exp"], "exp": 1])) == "crit")
        #expect(member(maker.proof(extraHeader: ["crit": ["urn:example:unknown"]])) == "crit")
        #expect(member(maker.proof(extraHeader: ["crit": []])) == "crit")
        #expect(member(maker.proof(extraHeader: ["crit": "exp"])) == "crit")
        #expect(member(maker.proof(extraHeader: ["crit": [7]])) == "crit")
    }

    /// RFC 7519 §4.1.5 and §4.1.4: a proof whose `nbf` is ahead, or `exp` behind, beyond the leeway is not accepted.
    @Test func aProofNotValidYetOrExpiredIsRefused() {
        let hour: TimeInterval = 3600
        #expect(member(maker.proof(extraClaims: ["nbf": Int(Self.now.timeIntervalSince1970 + hour)])) == "nbf")
        #expect(member(maker.proof(extraClaims: ["exp": Int(Self.now.timeIntervalSince1970 - hour)])) == "exp")
        #expect(refusal(maker.proof(extraClaims: ["nbf": Int(Self.now.timeIntervalSince1970 - 10)])) == nil)
    }

    @Test func theWindowEdgesAreInside() {
        #expect(refusal(maker.proof(iat: Self.now.addingTimeInterval(-300))) == nil)
        #expect(refusal(maker.proof(iat: Self.now.addingTimeInterval(300))) == nil)
    }

    @Test func queryAndDefaultPortDoNotMatterToHTU() {
        let request = DPoPRequest(method: "POST", uri: "https://as.example:443/oauth2/token?x=1")
        #expect(refusal(maker.proof(uri: "https://AS.example/oauth2/token"), request) == nil)
    }

    @Test func atAResourceTheAccessTokenHashIsRequiredAndChecked() {
        // RFC 9449 §7.1's example token and its `ath`.
        let token = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"
        let resource = DPoPRequest(method: "GET", uri: "https://as.example/userinfo", accessToken: token)
        let ath = "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"
        #expect(refusal(maker.proof(method: "GET", uri: "https://as.example/userinfo", ath: ath), resource) == nil)
        #expect(member(maker.proof(method: "GET", uri: "https://as.example/userinfo"), resource) == "ath")
        #expect(member(maker.proof(method: "GET", uri: "https://as.example/userinfo", ath: String(ath.reversed())), resource) == "ath")
    }

    @Test func rsaAndEdDSAProofsVerify() throws {
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let components = try rsa.publicKey.getKeyPrimitives()
        let rsaJWK = ["kty": "RSA", "n": Base64URL.encode(components.modulus), "e": Base64URL.encode(components.publicExponent)]
        let rs256 = maker.proof(alg: "RS256", jwk: rsaJWK) { input in
            Array(try! rsa.signature(for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5).rawRepresentation)
        }
        #expect(refusal(rs256) == nil)
        let ps256 = maker.proof(alg: "PS256", jwk: rsaJWK) { input in
            Array(try! rsa.signature(for: SHA256.hash(data: input), padding: .PSS).rawRepresentation)
        }
        #expect(refusal(ps256) == nil)
        // The same PKCS #1 signature under the PS256 name does not verify.
        #expect(member(maker.proof(alg: "PS256", jwk: rsaJWK) { input in
            Array(try! rsa.signature(for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5).rawRepresentation)
        }) == "signature")
        let ed = Curve25519.Signing.PrivateKey()
        let edJWK = ["kty": "OKP", "crv": "Ed25519", "x": Base64URL.encode(ed.publicKey.rawRepresentation)]
        #expect(refusal(maker.proof(alg: "EdDSA", jwk: edJWK) { input in Array(try! ed.signature(for: input)) }) == nil)
    }

    @Test func shortRSAKeysAreRefused() throws {
        let rsa = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
        let components = try rsa.publicKey.getKeyPrimitives()
        let jwk = ["kty": "RSA", "n": Base64URL.encode(components.modulus), "e": Base64URL.encode(components.publicExponent)]
        let proof = maker.proof(alg: "RS256", jwk: jwk) { input in
            Array(try! rsa.signature(for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5).rawRepresentation)
        }
        #expect(member(proof) == "jwk")
    }

    @Test func aServerThatRequiresNoncesAsksForOneAndTakesItsOwn() throws {
        let nonces = DPoPNonces(secret: SymmetricKey(size: .bits256))
        let check = DPoPProofCheck(nonces: nonces)
        let fresh = nonces.current(at: Self.now)
        #expect(refusal(maker.proof(), check: check) == .nonceRequired(nonce: fresh))
        #expect(refusal(maker.proof(nonce: "made-up"), check: check) == .nonceRequired(nonce: fresh))
        #expect(refusal(maker.proof(nonce: fresh), check: check) == nil)
        #expect(DPoPRefusal.nonceRequired(nonce: fresh).oauthError.code == .useDPoPNonce)
    }
}

@Suite struct DPoPNonceTests {
    @Test func instancesSharingTheSecretAgreeAndOthersDoNot() {
        let secret = SymmetricKey(size: .bits256)
        let a = DPoPNonces(secret: secret), b = DPoPNonces(secret: secret)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(b.accepts(a.current(at: now), at: now))
        #expect(!DPoPNonces(secret: SymmetricKey(size: .bits256)).accepts(a.current(at: now), at: now))
    }

    @Test func aNonceLivesForItsSlotAndTheNext() {
        let nonces = DPoPNonces(secret: SymmetricKey(size: .bits256), slotSeconds: 300)
        // Slots start every 300 s since the epoch: this one spans 1_800_000_000 ..< 1_800_000_300.
        let start = Date(timeIntervalSince1970: 1_800_000_100)
        let nonce = nonces.current(at: start)
        #expect(nonces.accepts(nonce, at: start.addingTimeInterval(299)))
        #expect(nonces.accepts(nonce, at: start.addingTimeInterval(450)))
        #expect(!nonces.accepts(nonce, at: start.addingTimeInterval(1000)))
        #expect(nonces.current(at: start) != nonces.current(at: start.addingTimeInterval(300)))
    }
}
