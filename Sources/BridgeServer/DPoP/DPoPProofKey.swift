import Crypto
import CryptoExtras
import SignInProtocol

/// The public key a DPoP proof carries in its `jwk` header, checked and ready to verify the proof's signature
/// (RFC 9449 §4.3 steps 5–7). Verified with swift-crypto directly, as `CompactJWSSigner` signs: the key is new with
/// every proof, so jwt-kit's key collection (which wants a `kid` and an actor hop per key) buys nothing here.
/// Client attestations and their PoPs are verified with it too (`ClientAttestationCheck`): the same JWKs, the same
/// algorithms.
struct DPoPProofKey: Sendable {
    /// The algorithms a proof may use: asymmetric only (§4.3 step 5), what `dpop_signing_alg_values_supported`
    /// advertises (RFC 9449 §5.1), in the server's order of preference.
    static let algorithms = JOSEHeaderRules.asymmetricAlgorithms

    /// Members that only a private or symmetric JWK has (RFC 7518 §6.2.2, §6.3.2, §6.4; RFC 8037 §2).
    static let privateMembers = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    private enum Verifier: Sendable {
        case es256(P256.Signing.PublicKey)
        case es384(P384.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey, pss: Bool)
        case ed25519(Curve25519.Signing.PublicKey)
    }

    private let verifier: Verifier
    /// The RFC 7638 thumbprint, `cnf.jkt` of what the proof binds.
    let thumbprint: String

    init(_ jwk: [String: JSONValue], algorithm: String) throws(DPoPProofError) {
        guard Self.algorithms.contains(algorithm) else {
            throw .invalid(member: "alg", reason: "is not an asymmetric algorithm this server accepts (RFC 9449 section 4.3)")
        }
        if let member = Self.privateMembers.first(where: { jwk[$0] != nil }) {
            throw .invalid(member: "jwk", reason: "holds private key material ('\(member)'), which a proof must never send")
        }
        thumbprint = try JWKThumbprint.sha256(of: jwk)
        func bytes(_ name: String) throws(DPoPProofError) -> [UInt8] {
            guard case .string(let text)? = jwk[name], let decoded = Base64URL.decode(text) else {
                throw .invalid(member: "jwk", reason: "has no base64url '\(name)'")
            }
            return decoded
        }
        func curve(_ expected: String, type: String) throws(DPoPProofError) {
            guard jwk["kty"] == .string(type), jwk["crv"] == .string(expected) else {
                throw .invalid(member: "jwk", reason: "is not a \(expected) key, which '\(algorithm)' needs")
            }
        }
        do {
            switch algorithm {
            case "ES256":
                try curve("P-256", type: "EC")
                verifier = .es256(try P256.Signing.PublicKey(x963Representation: [0x04] + (try bytes("x")) + (try bytes("y"))))
            case "ES384":
                try curve("P-384", type: "EC")
                verifier = .es384(try P384.Signing.PublicKey(x963Representation: [0x04] + (try bytes("x")) + (try bytes("y"))))
            case "EdDSA":
                try curve("Ed25519", type: "OKP")
                verifier = .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: try bytes("x")))
            default:
                guard jwk["kty"] == .string("RSA") else {
                    throw DPoPProofError.invalid(member: "jwk", reason: "is not an RSA key, which '\(algorithm)' needs")
                }
                let key = try _RSA.Signing.PublicKey(n: try bytes("n"), e: try bytes("e"))
                // RFC 7518 §3.3 and §3.5: RSA keys of 2048 bits or more.
                guard key.keySizeInBits >= 2048 else {
                    throw DPoPProofError.invalid(member: "jwk", reason: "is an RSA key shorter than 2048 bits (RFC 7518 section 3.3)")
                }
                verifier = .rsa(key, pss: algorithm == "PS256")
            }
        } catch let error as DPoPProofError {
            throw error
        } catch {
            throw .invalid(member: "jwk", reason: "is not a valid public key for '\(algorithm)'")
        }
    }

    /// The algorithms `jwk` can verify: those whose key type and curve it has, narrowed to its `alg` when it names one.
    static func algorithms(for jwk: [String: JSONValue]) -> [String] {
        algorithms.filter { algorithm in
            (jwk["alg"] == nil || jwk["alg"] == .string(algorithm)) && (try? DPoPProofKey(jwk, algorithm: algorithm)) != nil
        }
    }

    /// True when `signature` over `signingInput` was made with the private half of this key (RFC 7515 §5.2).
    func verifies(_ signature: [UInt8], over signingInput: [UInt8]) -> Bool {
        switch verifier {
        case .es256(let key):
            // RFC 7518 §3.4: R and S, 32 bytes each.
            guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: signingInput)
        case .es384(let key):
            guard let parsed = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: signingInput)
        case .rsa(let key, let pss):
            let digest = SHA256.hash(data: signingInput)
            let parsed = _RSA.Signing.RSASignature(rawRepresentation: signature)
            // RS256 is PKCS #1 v1.5 (RFC 7518 §3.3); PS256 is PSS with MGF1 and a 32-byte salt (§3.5).
            return key.isValidSignature(parsed, for: digest, padding: pss ? .PSS : .insecurePKCS1v1_5)
        case .ed25519(let key):
            return key.isValidSignature(signature, for: signingInput)
        }
    }
}
