import Crypto
import CryptoExtras
import Foundation
import SignInProtocol
import JWTKit

/// The keys this server signs with: P-256 keys (ES256) for access tokens, WOPI seals and ID tokens of clients that
/// ask for ES256, and RSA keys (RS256) for ID tokens by default, since OpenID Connect Core §15.1 makes RS256 the
/// algorithm every relying party can verify. The first key of each kind signs; every key is published in the JWKS so
/// tokens signed before a rotation still verify. Kept in one JSON file (`SigningKeyFile`).
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

    /// An RSA key of 2048 bits or more (RFC 7518 §3.3 requires at least 2048 for RS256).
    public struct RSAKey: Sendable {
        /// RFC 7638 JWK thumbprint of the public key.
        public let kid: String
        let signingKey: _RSA.Signing.PrivateKey
        /// Modulus and public exponent, base64url without padding (RFC 7518 §6.3.1).
        let n: String
        let e: String
    }

    public let keys: [Key]
    public let rsaKeys: [RSAKey]
    /// The collection jwt-kit signs and verifies with.
    public let collection: JWTKeyCollection

    public var signingKey: Key { keys[0] }
    public var rsaSigningKey: RSAKey { rsaKeys[0] }

    init(keys: [Key], rsaKeys: [RSAKey]) async throws {
        precondition(!keys.isEmpty && !rsaKeys.isEmpty, "a key set holds a key of each kind")
        self.keys = keys
        self.rsaKeys = rsaKeys
        let collection = JWTKeyCollection()
        for key in keys { await collection.add(ecdsa: key.privateKey, kid: JWKIdentifier(string: key.kid)) }
        for key in rsaKeys {
            await collection.add(
                rsa: try Insecure.RSA.PrivateKey(backing: key.signingKey), digestAlgorithm: .sha256,
                kid: JWKIdentifier(string: key.kid))
        }
        self.collection = collection
    }

    /// A set with new keys, not saved anywhere (tests).
    public static func generate() async throws -> SigningKeySet {
        try await SigningKeySet(
            keys: [try Key(signingKey: P256.Signing.PrivateKey())],
            rsaKeys: [try RSAKey(signingKey: _RSA.Signing.PrivateKey(keySize: .bits2048))])
    }

    /// The JWKS document (RFC 7517 §5) with the public halves only, each key with its `alg` (RFC 7517 §4.4).
    public var jwksJSON: String {
        let ec = keys.map { key in
            #"{"alg":"ES256","crv":"P-256","kid":"\#(key.kid)","kty":"EC","use":"sig","x":"\#(key.x)","y":"\#(key.y)"}"#
        }
        let rsa = rsaKeys.map { key in
            #"{"alg":"RS256","e":"\#(key.e)","kid":"\#(key.kid)","kty":"RSA","n":"\#(key.n)","use":"sig"}"#
        }
        return #"{"keys":["# + (ec + rsa).joined(separator: ",") + "]}"
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

extension SigningKeySet.RSAKey {
    /// Refuses keys under 2048 bits (RFC 7518 §3.3).
    init(signingKey: _RSA.Signing.PrivateKey) throws(SigningKeyError) {
        guard signingKey.keySizeInBits >= 2048 else { throw .rsaKeyTooSmall(bits: signingKey.keySizeInBits) }
        guard let primitives = try? signingKey.publicKey.getKeyPrimitives() else { throw .unreadableKey }
        self.signingKey = signingKey
        self.n = Base64URL.encode(primitives.modulus)
        self.e = Base64URL.encode(primitives.publicExponent)
        // RFC 7638 §3.2: for RSA the required members are e, kty and n, in that order.
        let canonical = #"{"e":"\#(e)","kty":"RSA","n":"\#(n)"}"#
        self.kid = Base64URL.encode(Data(SHA256.hash(data: Data(canonical.utf8))))
    }
}

/// Why a key could not be used.
public enum SigningKeyError: Error, Sendable, Equatable {
    case rsaKeyTooSmall(bits: Int)
    case unreadableKey
}
