import Crypto
import SignInProtocol

/// Writes an ES256 JWS in compact serialization (RFC 7515 §7.1; RFC 7518 §3.4: the signature is R and S, 32 bytes
/// each) with a protected header fixed per key and token type. Done here rather than through jwt-kit's
/// `JWTKeyCollection.sign`, which goes through an actor and `JSONEncoder` and cost more CPU per token request than the
/// signature itself; jwt-kit still verifies every token and publishes the JWKS, and the tests check one against the
/// other. Access tokens (`at+jwt`, RFC 9068 §2.1) and ID tokens (`JWT`) both sign through it.
struct ES256CompactSigner: Sendable {
    let privateKey: P256.Signing.PrivateKey
    /// The encoded protected header: `{"alg":"ES256","kid":…,"typ":…}`.
    let encodedHeader: String

    init(key: SigningKeySet.Key, type: String) {
        privateKey = key.signingKey
        let header = #"{"alg":"ES256","kid":"# + JSONText.quoted(key.kid) + #","typ":"# + JSONText.quoted(type) + "}"
        encodedHeader = Base64URL.encode(Array(header.utf8))
    }

    /// `payload` is the claims' JSON text.
    func sign(payload: some Sequence<UInt8>) throws -> String {
        let signingInput = encodedHeader + "." + Base64URL.encode(Array(payload))
        let signature = try privateKey.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
