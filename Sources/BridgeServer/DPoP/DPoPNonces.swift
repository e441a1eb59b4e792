import Crypto
import Foundation
import SignInProtocol

/// Server-provided DPoP nonces (RFC 9449 §8, §9) that need no shared state: a nonce is the HMAC-SHA-256 of a time
/// slot under a secret every instance reads from the signing key file, so a nonce minted by one instance is accepted
/// by any other (node-oidc-provider does the same). A nonce stays good for the slot it was minted in and the next.
struct DPoPNonces: Sendable {
    let secret: SymmetricKey
    let slotSeconds: Int64

    init(secret: SymmetricKey, slotSeconds: Int64 = 300) {
        self.secret = secret
        self.slotSeconds = slotSeconds
    }

    /// The nonce to send in `DPoP-Nonce` now.
    func current(at now: Date) -> String { nonce(forSlot: slot(at: now)) }

    /// True for the nonce of the current or the previous slot; instances whose clocks differ by less than a slot
    /// agree. Compared in constant time, as any secret-derived value.
    func accepts(_ presented: String, at now: Date) -> Bool {
        let slot = slot(at: now)
        return [slot, slot - 1].contains { ConstantTime.equal(presented.utf8, nonce(forSlot: $0).utf8) }
    }

    private func slot(at now: Date) -> Int64 { Int64(now.timeIntervalSince1970.rounded(.down)) / slotSeconds }

    private func nonce(forSlot slot: Int64) -> String {
        let message = Array("dpop-nonce:\(slot)".utf8)
        return Base64URL.encode(Array(HMAC<SHA256>.authenticationCode(for: message, using: secret)))
    }
}
