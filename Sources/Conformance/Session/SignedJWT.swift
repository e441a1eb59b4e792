import Crypto
import Foundation
import SignInProtocol

/// The compact ES256 JWS the suite signs as a client (DPoP proofs, client attestations and their PoPs): members are
/// written in order, so a check can add exactly the one flaw it needs.
enum SignedJWT {
    /// A JSON object from members whose values are already JSON text.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { JSONText.quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// A P-256 public key's JWK members (RFC 7518 §6.2.1), values as plain strings.
    static func publicJWK(_ key: P256.Signing.PublicKey) -> [(String, String)] {
        let point = Array(key.x963Representation.dropFirst())
        return [("kty", "EC"), ("crv", "P-256"), ("x", Base64URL.encode(point[..<32])), ("y", Base64URL.encode(point[32...]))]
    }

    /// `header.claims.signature` (RFC 7515 §7.1), signed by `key` with ES256 (RFC 7518 §3.4: r || s).
    static func es256(header: [(String, String)], claims: [(String, String)], signedBy key: P256.Signing.PrivateKey) -> String {
        let input = Base64URL.encode(Array(object(header).utf8)) + "." + Base64URL.encode(Array(object(claims).utf8))
        let signature = (try? key.signature(for: Array(input.utf8)).rawRepresentation) ?? Data()
        return input + "." + Base64URL.encode(Array(signature))
    }
}
