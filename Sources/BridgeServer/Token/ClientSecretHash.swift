import Crypto
import Foundation
import SignInProtocol

/// A client secret as the configuration stores it: `sha256:<hex>` of the secret. Client secrets are long random
/// values, not passwords, so one SHA-256 is enough and keeps the token endpoint fast (bcrypt would cost ~250 ms of
/// CPU per request at cost 12); the config schema accepts only this form.
struct ClientSecretHash: Sendable, Hashable {
    let digest: [UInt8]

    /// Nil unless `sha256:` followed by 64 lower-case hex digits (the schema's form).
    init?(configured value: String) {
        guard value.hasPrefix("sha256:") else { return nil }
        let hex = Array(value.utf8.dropFirst("sha256:".utf8.count))
        guard hex.count == 64 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = Self.nibble(hex[index]), let low = Self.nibble(hex[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        digest = bytes
    }

    /// Compares in constant time, so the answer's timing says nothing about how much of the secret was right.
    func matches(_ secret: String) -> Bool {
        ConstantTime.equal(SHA256.hash(data: Array(secret.utf8)), digest)
    }

    /// A configured secret with its optional end (`BridgeConfiguration.Client.Secret`).
    struct Expiring: Sendable, Hashable {
        let hash: ClientSecretHash
        let expiresAt: Date?

        /// The secret `secret` matches; every candidate is compared, so the time taken says nothing about which.
        static func firstMatch(of secret: String, in candidates: [Expiring]) -> Expiring? {
            var found: Expiring?
            for candidate in candidates where candidate.hash.matches(secret) && found == nil { found = candidate }
            return found
        }
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
