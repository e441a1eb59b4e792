import Crypto
import Foundation
import SignInProtocol

/// A local ES256 key that signs JWTs with any header and claims, and publishes itself as a JWKS.
struct TestJWS: Sendable {
    let key = P256.Signing.PrivateKey()
    let kid: String

    init(kid: String = "test-key-1") { self.kid = kid }

    /// A compact JWS over the JSON texts given (claims written out as the providers' docs show them).
    func sign(claims: String, header: [String: String]? = nil) -> String {
        let header = header ?? ["typ": "JWT"]
        var members = header.merging(["alg": "ES256", "kid": kid]) { given, _ in given }
        members = members.filter { !$0.value.isEmpty }
        let headerJSON = try! JSONSerialization.data(withJSONObject: members, options: [.sortedKeys])
        let input = Base64URL.encode(Array(headerJSON)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature = try! key.signature(for: Data(input.utf8))
        return input + "." + Base64URL.encode(Array(signature.rawRepresentation))
    }

    var jwks: String {
        let raw = Array(key.publicKey.rawRepresentation)
        return #"{"keys":[{"kty":"EC","crv":"P-256","use":"sig","alg":"ES256","kid":"\#(kid)","x":"\#(Base64URL.encode(Array(raw[0..<32])))","y":"\#(Base64URL.encode(Array(raw[32..<64])))"}]}"#
    }
}
