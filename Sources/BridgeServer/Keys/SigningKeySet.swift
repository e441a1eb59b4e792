import Crypto
import Foundation
import SignInProtocol
import JWTKit

/// The ES256 keys this server signs access tokens with. The first key signs; every key is published in the JWKS so
/// tokens signed before a rotation still verify. Kept in one JSON file, created with a fresh key on first start.
public struct SigningKeySet: Sendable {
    public struct Key: Sendable {
        /// RFC 7638 JWK thumbprint of the public key: stable, and derived rather than invented.
        public let kid: String
        let privateKey: ES256PrivateKey
        /// The same key as swift-crypto's type, which `AccessTokenSigner` signs with.
        let signingKey: P256.Signing.PrivateKey
        let x: String
        let y: String
    }

    public let keys: [Key]
    /// The collection jwt-kit signs and verifies with.
    public let collection: JWTKeyCollection

    public var signingKey: Key { keys[0] }

    init(keys: [Key]) async {
        self.keys = keys
        let collection = JWTKeyCollection()
        for key in keys { await collection.add(ecdsa: key.privateKey, kid: JWKIdentifier(string: key.kid)) }
        self.collection = collection
    }

    /// A set with one new key, not saved anywhere (tests).
    public static func generate() async throws -> SigningKeySet {
        await SigningKeySet(keys: [try Key(signingKey: P256.Signing.PrivateKey())])
    }

    /// The JWKS document (RFC 7517 §5) with the public halves only.
    public var jwksJSON: String {
        let entries = keys.map { key in
            #"{"alg":"ES256","crv":"P-256","kid":"\#(key.kid)","kty":"EC","use":"sig","x":"\#(key.x)","y":"\#(key.y)"}"#
        }
        return #"{"keys":["# + entries.joined(separator: ",") + "]}"
    }
}

extension SigningKeySet.Key {
    init(signingKey: P256.Signing.PrivateKey) throws {
        let privateKey = try ES256PrivateKey(backing: signingKey)
        // A P-256 key always has parameters; jwt-kit returns them base64url-encoded.
        let parameters = privateKey.parameters ?? (x: "", y: "")
        self.privateKey = privateKey
        self.signingKey = signingKey
        self.x = parameters.x
        self.y = parameters.y
        // RFC 7638 §3.2: the required members in lexicographic order, no whitespace.
        let canonical = #"{"crv":"P-256","kty":"EC","x":"\#(parameters.x)","y":"\#(parameters.y)"}"#
        self.kid = Base64URL.encode(Data(SHA256.hash(data: Data(canonical.utf8))))
    }
}
