import Crypto
import CryptoExtras
import SignInProtocol

/// Writes a JWS in compact serialization (RFC 7515 §7.1) with a protected header fixed per key and token type:
/// ES256 (RFC 7518 §3.4: the signature is R and S, 32 bytes each) for access tokens and the ID tokens of clients that
/// ask for it, RS256 (RFC 7518 §3.3: RSASSA-PKCS1-v1_5 with SHA-256) for ID tokens by default. Done here rather than
/// through jwt-kit's `JWTKeyCollection.sign`, which goes through an actor and `JSONEncoder` and cost more CPU per
/// token request than the signature itself; jwt-kit still verifies every token and publishes the JWKS, and the tests
/// check one against the other.
struct CompactJWSSigner: Sendable {
    enum Key: Sendable {
        case es256(P256.Signing.PrivateKey)
        case rs256(_RSA.Signing.PrivateKey)
    }

    let key: Key
    /// The encoded protected header: `{"alg":…,"kid":…,"typ":…}`.
    let encodedHeader: String

    init(es256 key: SigningKeySet.Key, type: String) {
        self.init(.es256(key.signingKey), algorithm: "ES256", kid: key.kid, type: type)
    }

    init(rs256 key: SigningKeySet.RSAKey, type: String) {
        self.init(.rs256(key.signingKey), algorithm: "RS256", kid: key.kid, type: type)
    }

    private init(_ key: Key, algorithm: String, kid: String, type: String) {
        self.key = key
        let header = #"{"alg":""# + algorithm + #"","kid":"# + JSONText.quoted(kid) + #","typ":"# + JSONText.quoted(type) + "}"
        encodedHeader = Base64URL.encode(Array(header.utf8))
    }

    /// `payload` is the claims' JSON text.
    func sign(payload: some Sequence<UInt8>) throws -> String {
        let signingInput = encodedHeader + "." + Base64URL.encode(Array(payload))
        let signature: [UInt8]
        switch key {
        case .es256(let privateKey):
            signature = Array(try privateKey.signature(for: Array(signingInput.utf8)).rawRepresentation)
        case .rs256(let privateKey):
            // PKCS #1 v1.5 is what RS256 is; swift-crypto names it "insecure" to steer new protocols to PSS.
            let digest = SHA256.hash(data: Array(signingInput.utf8))
            signature = Array(try privateKey.signature(for: digest, padding: .insecurePKCS1v1_5).rawRepresentation)
        }
        return signingInput + "." + Base64URL.encode(signature)
    }
}
