import Crypto
import Foundation

/// The SHA-256 of a secret token, the only form in which a store sees bearer secrets (codes, refresh tokens,
/// WOPI tokens, session ids). A leaked database then yields nothing a client could present (RFC 9700 §4.14).
/// SHA-256 without salt is enough here because the secrets are 256-bit random values, not passwords.
public struct TokenDigest: Sendable, Hashable, CustomStringConvertible {
    /// Lower-case hex of the 32-byte digest.
    public let hex: String

    public init(of secret: some StringProtocol) {
        let digest = SHA256.hash(data: Array(secret.utf8))
        self.hex = digest.map { byte in
            let h = String(byte, radix: 16)
            return byte < 16 ? "0" + h : h
        }.joined()
    }

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
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        self.value = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    public var digest: TokenDigest { TokenDigest(of: value) }
}
