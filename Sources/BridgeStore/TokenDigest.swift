import Crypto
import SignInProtocol
import Foundation

/// The SHA-256 of a secret token, the only form in which a store sees bearer secrets (codes, refresh tokens,
/// WOPI tokens, session ids). A leaked database then yields nothing a client could present (RFC 9700 §4.14).
/// SHA-256 without salt is enough here because the secrets are 256-bit random values, not passwords.
public struct TokenDigest: Sendable, Hashable, CustomStringConvertible {
    /// Lower-case hex of the 32-byte digest.
    public let hex: String

    public init(of secret: some StringProtocol) {
        let digest = SHA256.hash(data: Array(secret.utf8))
        self.hex = String(unsafeUninitializedCapacity: 64) { output in
            for (index, byte) in digest.enumerated() {
                output[2 * index] = Self.hexDigits[Int(byte >> 4)]
                output[2 * index + 1] = Self.hexDigits[Int(byte & 0x0F)]
            }
            return 64
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Rebuilds a digest read back from a database; nil unless 64 lower-case hex characters.
    public init?(hex: String) {
        guard hex.utf8.count == 64, hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        self.hex = hex
    }

    /// Never prints the digest itself in full, so logs cannot be used to correlate tokens across systems.
    public var description: String { "TokenDigest(\(hex.prefix(8))…)" }
}

/// A fresh bearer secret: 32 random bytes from the system CSPRNG, base64url without padding (43 characters,
/// all in the RFC 3986 unreserved set so it survives URLs and headers unescaped).
public struct SecretToken: Sendable, Hashable {
    public let value: String

    public init() {
        // BoringSSL's CSPRNG (seeded by the kernel, fork-safe): one call, where 32 `UInt8.random` were 32 syscalls.
        let key = SymmetricKey(size: .bits256)
        self.value = key.withUnsafeBytes { Base64URL.encode($0) }
    }

    private init(value: String) { self.value = value }

    /// This secret, a `.` and `binding` (a DPoP key's thumbprint, RFC 9449 §5): the store keeps the digest of the
    /// whole value, so the binding cannot be changed or dropped without the token becoming unknown.
    public func bound(to binding: String) -> SecretToken { SecretToken(value: value + "." + binding) }

    /// What follows the `.` of a `bound(to:)` value; nil for an unbound one (a plain secret has no `.`).
    public static func binding(of value: String) -> Substring? {
        value.lastIndex(of: ".").map { value[value.index(after: $0)...] }
    }

    public var digest: TokenDigest { TokenDigest(of: value) }
}
