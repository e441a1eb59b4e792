import Crypto
import CryptoExtras
import Foundation
import JWTKit
import NIOConcurrencyHelpers
import SignInProtocol

/// The keys this server signs with: P-256 keys (ES256) for access tokens, WOPI seals and ID tokens of clients that
/// ask for ES256, and RSA keys (RS256) for ID tokens by default, since OpenID Connect Core §15.1 makes RS256 the
/// algorithm every relying party can verify. The current key of each kind signs; every key (next, current,
/// previous) is published in the JWKS so tokens signed before a rotation still verify (OpenID Connect Core §10.1.1).
/// Kept in one JSON file (`SigningKeyFile`).
///
/// A handle: copies share one set, and `replace(with:)` changes it for all of them, which is how a running server
/// picks up a rotation (`SigningKeyFileWatch`). Each reader takes one `Snapshot`, so a token is signed and its
/// header written from the same keys.
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

    /// One reading of the key file and what is derived from it once, not per token: the signers with their encoded
    /// headers, the WOPI seal's HMAC keys, the JWKS document.
    final class Snapshot: Sendable {
        /// The signing key first (`SigningKeyFile` orders them), then the other published keys.
        let keys: [Key]
        let rsaKeys: [RSAKey]
        /// The collection jwt-kit verifies with.
        let collection: JWTKeyCollection
        let jwks: [UInt8]
        let accessTokenSigner: AccessTokenSigner
        let idTokenRS256: CompactJWSSigner
        let idTokenES256: CompactJWSSigner
        let wopiSealKeys: [WopiAccessTokenSeal.Key]
        /// The first-party step-up sessions' AES keys, first key seals (`StepUpSessionSeal`).
        let stepUpKeys: [StepUpSessionSeal.Key]
        /// Different for every snapshot made in this process, so a verdict reached with one is not reused with another.
        let generation: UInt64

        private static let generations = NIOLockedValueBox<UInt64>(0)

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
            jwks = Array(SigningKeySet.jwksJSON(keys: keys, rsaKeys: rsaKeys).utf8)
            accessTokenSigner = AccessTokenSigner(key: keys[0])
            idTokenRS256 = CompactJWSSigner(rs256: rsaKeys[0], type: "JWT")
            idTokenES256 = CompactJWSSigner(es256: keys[0], type: "JWT")
            wopiSealKeys = keys.map(WopiAccessTokenSeal.Key.init(signingKey:))
            stepUpKeys = keys.map(StepUpSessionSeal.Key.init(signingKey:))
            generation = Self.generations.withLockedValue { counter in
                counter += 1
                return counter
            }
        }
    }

    private let shared: NIOLockedValueBox<Snapshot>

    /// The keys as they are now; take it once per token.
    var snapshot: Snapshot { shared.withLockedValue { $0 } }

    public var keys: [Key] { snapshot.keys }
    public var rsaKeys: [RSAKey] { snapshot.rsaKeys }
    /// The collection jwt-kit signs and verifies with.
    public var collection: JWTKeyCollection { snapshot.collection }
    public var signingKey: Key { snapshot.keys[0] }
    public var rsaSigningKey: RSAKey { snapshot.rsaKeys[0] }

    /// The secret of the stateless DPoP nonces (`DPoPNonces`), read from the key file once: a rotation does not
    /// change it, so nonces handed out before a rotation stay good.
    let dpopNonceSecret: SymmetricKey

    init(keys: [Key], rsaKeys: [RSAKey], dpopNonceSecret: SymmetricKey = SymmetricKey(size: .bits256)) async throws {
        shared = NIOLockedValueBox(try await Snapshot(keys: keys, rsaKeys: rsaKeys))
        self.dpopNonceSecret = dpopNonceSecret
    }

    /// Makes every copy of this set use `other`'s keys from now on.
    public func replace(with other: SigningKeySet) {
        let next = other.snapshot
        shared.withLockedValue { $0 = next }
    }

    /// A set with new keys, not saved anywhere (tests).
    public static func generate() async throws -> SigningKeySet {
        try await SigningKeySet(
            keys: [try Key(signingKey: P256.Signing.PrivateKey())],
            rsaKeys: [try RSAKey(signingKey: _RSA.Signing.PrivateKey(keySize: .bits2048))])
    }

    /// The JWKS document (RFC 7517 §5) with the public halves only, each key with its `alg` (RFC 7517 §4.4).
    public var jwksJSON: String { String(decoding: snapshot.jwks, as: UTF8.self) }

    static func jwksJSON(keys: [Key], rsaKeys: [RSAKey]) -> String {
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
        self.kid = JWKThumbprint.sha256(p256X: parameters.x, y: parameters.y)
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
        self.kid = JWKThumbprint.sha256(rsaModulus: n, exponent: e)
    }
}

/// Why a key could not be used.
public enum SigningKeyError: Error, Sendable, Equatable {
    case rsaKeyTooSmall(bits: Int)
    case unreadableKey
}
