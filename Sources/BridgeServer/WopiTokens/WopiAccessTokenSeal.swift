import BridgeStore
import Crypto
import Foundation
import SignInProtocol

/// What a WOPI access token says: the grant it was handed out under, the WOPI resource it is for (nil for the
/// ecosystem token of a plain bootstrap) and its lifetime. Office treats the token as opaque and sends it back to
/// the host's WOPI endpoints (Microsoft's "WOPI access tokens" page), where `WopiAccessTokenVerifier` reads it.
public struct WopiAccessTokenClaims: Sendable, Hashable {
    public var grantID: GrantID
    public var wopiSource: String?
    /// Whole milliseconds, as `AccessTokenInfo.AccessTokenExpiry` reports them.
    public var issuedAt: Date
    public var expiresAt: Date

    public init(grantID: GrantID, wopiSource: String?, issuedAt: Date, expiresAt: Date) {
        self.grantID = grantID
        self.wopiSource = wopiSource
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }
}

/// Why a string is not a WOPI access token of this server; says which part is wrong, never echoes the token.
public enum WopiAccessTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    case tooLong(bytes: Int, limit: Int)
    /// Not `w1.<key>.<payload>.<seal>`, or a part that is not base64url.
    case malformed(part: String)
    /// Sealed under a key this server does not hold (another deployment, or a key removed from the key file).
    case unknownKey
    /// The seal does not match the payload: altered or forged.
    case badSeal

    public var description: String {
        switch self {
        case .tooLong(let bytes, let limit): "WOPI access token is \(bytes) bytes, over the limit of \(limit)"
        case .malformed(let part): "WOPI access token's \(part) is malformed"
        case .unknownKey: "WOPI access token is sealed under a key this server does not hold"
        case .badSeal: "WOPI access token's seal does not match its payload"
        }
    }
}

/// Seals and opens WOPI access tokens: `w1.<key tag>.<payload>.<HMAC-SHA256>`, base64url parts, so that a token
/// carries its own proof and the bootstrap records nothing (a host checks the token's grant instead of looking the
/// token up). The HMAC keys are derived from the ES256 signing keys (HKDF, RFC 5869), so every instance that shares
/// the key file opens every other's tokens, and a token sealed before a key rotation opens while its key is kept.
public struct WopiAccessTokenSeal: Sendable {
    /// Bigger than any token this server makes (a WopiSrc within the header limit plus ~130 bytes), small enough
    /// that a hostile string costs nothing to refuse.
    public static let maxBytes = 16 * 1024
    static let version = "w1"

    struct Key: Sendable {
        /// The first 8 characters of the signing key's RFC 7638 thumbprint: picks the key, proves nothing.
        let tag: String
        /// HMAC with the key already absorbed, copied for each token: `HMAC(key:)` hashes the padded key twice, and
        /// per token that was 2.6% of an authenticated bootstrap's CPU (`perf record`).
        let keyed: HMAC<SHA256>

        init(signingKey key: SigningKeySet.Key) {
            let secret = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: key.signingKey.rawRepresentation),
                salt: Data("SignInBridge".utf8), info: Data("WOPI access token seal v1".utf8), outputByteCount: 32)
            self.init(tag: String(key.kid.prefix(8)), keyed: HMAC<SHA256>(key: secret))
        }

        init(tag: String, keyed: HMAC<SHA256>) {
            self.tag = tag
            self.keyed = keyed
        }

        func code(for bytes: some DataProtocol) -> HashedAuthenticationCode<SHA256> {
            var hmac = keyed
            hmac.update(data: bytes)
            return hmac.finalize()
        }
    }

    let signingKeys: SigningKeySet
    /// The first key seals; every key opens. Derived once per key set (`SigningKeySet.Snapshot`), read per token.
    var keys: [Key] { signingKeys.snapshot.wopiSealKeys }

    public init(keys: SigningKeySet) {
        signingKeys = keys
    }

    public func seal(_ claims: WopiAccessTokenClaims) -> String {
        var payload = Array(claims.grantID.rawValue.utf8)
        payload.append(0x0A)
        payload += Milliseconds.from(claims.issuedAt).description.utf8
        payload.append(0x0A)
        payload += Milliseconds.from(claims.expiresAt).description.utf8
        if let source = claims.wopiSource {
            payload.append(0x0A)
            payload += source.utf8
        }
        let key = keys[0]
        var sealed = Self.version + "." + key.tag + "." + Base64URL.encode(payload)
        let mac = key.code(for: Array(sealed.utf8))
        sealed += "." + Base64URL.encode(Array(mac))
        return sealed
    }

    /// The claims of a token this server sealed. Expiry is the caller's to check (`WopiAccessTokenVerifier`).
    public func open(_ token: String) throws(WopiAccessTokenError) -> WopiAccessTokenClaims {
        let bytes = token.utf8.count
        guard bytes <= Self.maxBytes else { throw .tooLong(bytes: bytes, limit: Self.maxBytes) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == Self.version else { throw .malformed(part: "format") }
        guard let key = keys.first(where: { $0.tag == parts[1] }) else { throw .unknownKey }
        guard let mac = Base64URL.decode(String(parts[3])), mac.count == SHA256.byteCount else {
            throw .malformed(part: "seal")
        }
        // RFC 4648 §3.5: the seal's last character carries two unused bits; only the spelling this server writes
        // matches, so a token has one string (a changed last character is not the same token).
        guard Base64URL.encode(mac).utf8.elementsEqual(parts[3].utf8) else { throw .badSeal }
        let sealed = token.utf8.prefix(token.utf8.count - parts[3].utf8.count - 1)
        // swift-crypto's `==` between a code and bytes compares in constant time.
        guard key.code(for: Array(sealed)) == mac else { throw .badSeal }
        guard let payload = Base64URL.decode(String(parts[2])).flatMap({ String(validating: $0, as: UTF8.self) }) else {
            throw .malformed(part: "payload")
        }
        let fields = payload.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false)
        guard fields.count >= 3, !fields[0].isEmpty, let issued = Int64(fields[1]), let expires = Int64(fields[2]) else {
            throw .malformed(part: "payload")
        }
        return WopiAccessTokenClaims(
            grantID: GrantID(String(fields[0])), wopiSource: fields.count == 4 ? String(fields[3]) : nil,
            issuedAt: Milliseconds.date(issued), expiresAt: Milliseconds.date(expires))
    }
}
