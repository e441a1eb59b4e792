import BridgeStore
import Crypto
import Foundation
@testable import BridgeServer
@testable import SignInProtocol

/// Plays the attester and the client instance of draft-ietf-oauth-attestation-based-client-auth-11 (§1): signs
/// attestations and PoPs with one thing changed at a time.
struct ClientAttestationMaker {
    static let issuer = "https://as.example"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    let attesterKey = P256.Signing.PrivateKey()
    let instanceKey = P256.Signing.PrivateKey()

    static func jwk(_ key: P256.Signing.PublicKey) -> [String: String] {
        let point = Array(key.x963Representation.dropFirst())
        return ["kty": "EC", "crv": "P-256", "x": Base64URL.encode(point[..<32]), "y": Base64URL.encode(point[32...])]
    }

    /// The YAML of `clientAttestation` trusting this maker's attester (with `kid` a1).
    var attestersYAML: String {
        let key = Self.jwk(attesterKey.publicKey).merging(["kid": "a1"]) { $1 }
        let members = key.sorted { $0.key < $1.key }.map { "\($0.key): \"\($0.value)\"" }.joined(separator: ", ")
        return """
            clientAttestation:
              attesters:
                - issuer: https://attester.example
                  jwks: [{\(members)}]
            """
    }

    static func sign(_ header: [String: Any], _ claims: [String: Any], with key: P256.Signing.PrivateKey) -> String {
        func part(_ object: [String: Any]) -> String {
            Base64URL.encode(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        }
        let input = part(header) + "." + part(claims)
        return input + "." + Base64URL.encode(Array(try! key.signature(for: Array(input.utf8)).rawRepresentation))
    }

    func attestation(
        sub: String = "attested-app", iss: String? = "https://attester.example", kid: String? = "a1",
        iat: Date? = now.addingTimeInterval(-60), exp: Date = now.addingTimeInterval(3600),
        signer: P256.Signing.PrivateKey? = nil, cnf: P256.Signing.PublicKey? = nil, extraHeader: [String: Any] = [:],
        extraClaims: [String: Any] = [:]
    ) -> String {
        var header: [String: Any] = ["typ": "oauth-client-attestation+jwt", "alg": "ES256"].merging(extraHeader) { $1 }
        if let kid { header["kid"] = kid }
        var claims: [String: Any] = [
            "sub": sub, "exp": Int(exp.timeIntervalSince1970), "cnf": ["jwk": Self.jwk(cnf ?? instanceKey.publicKey)],
        ]
        if let iss { claims["iss"] = iss }
        if let iat { claims["iat"] = Int(iat.timeIntervalSince1970) }
        claims.merge(extraClaims) { $1 }
        return Self.sign(header, claims, with: signer ?? attesterKey)
    }

    func proof(
        aud: String = issuer, iat: Date = now, jti: String = UUID().uuidString, iss: String? = nil,
        signer: P256.Signing.PrivateKey? = nil, extraHeader: [String: Any] = [:], extraClaims: [String: Any] = [:]
    ) -> String {
        var claims: [String: Any] = ["aud": aud, "jti": jti, "iat": Int(iat.timeIntervalSince1970)]
        if let iss { claims["iss"] = iss }
        claims.merge(extraClaims) { $1 }
        let header: [String: Any] = ["typ": "oauth-client-attestation-pop+jwt", "alg": "ES256"].merging(extraHeader) { $1 }
        return Self.sign(header, claims, with: signer ?? instanceKey)
    }
}

/// A single-use store in memory, as the contract suite describes `DPoPProofStore`; `failing` answers every call
/// with an error, as an unreachable database would.
actor MemoryProofStore: DPoPProofStore {
    private var used: Set<TokenDigest> = []
    let failing: Bool

    init(failing: Bool = false) { self.failing = failing }

    struct Unavailable: Error {}

    func useDPoPProof(_ proof: DPoPProofUse, at now: Date) async throws -> DPoPProofUseOutcome {
        if failing { throw Unavailable() }
        return used.insert(proof.digest).inserted ? .firstUse : .replayed
    }
}
