import Crypto
import Foundation
import NIOConcurrencyHelpers

/// The signature check is the costliest step of accepting an access token (an ES256 verification per request).
/// A token's signature and claims can never change, so the verdict is kept per exact token string; expiry and
/// revocation are still checked on every use, by `AccessTokenVerifier`. Only tokens that passed are remembered, so
/// a flood of forged tokens costs their own verification and never evicts a good one early. Tokens are kept by
/// their SHA-256 (32 bytes against a JWT's ~700): at the capacity of 10,000 that is the difference of ~6 MiB. The
/// digest itself is the key, not its hex text, which cost a string per lookup. A verdict holds for the key set it
/// was reached with (`SigningKeySet.Snapshot.generation`): after a reload, a token of a retired key is refused.
final class VerifiedClaimsCache: Sendable {
    struct Entry {
        let claims: AccessTokenClaims
        let generation: UInt64
    }

    private let entries = NIOLockedValueBox<[SHA256Digest: Entry]>([:])
    let capacity: Int

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    func claims(for token: String, generation: UInt64) -> AccessTokenClaims? {
        let key = Self.key(token)
        let entry = entries.withLockedValue { $0[key] }
        return entry?.generation == generation ? entry?.claims : nil
    }

    /// When full, expired entries go first; if none has expired, everything goes (the next uses verify again).
    func remember(_ claims: AccessTokenClaims, for token: String, generation: UInt64, at now: Date) {
        guard capacity > 0 else { return }
        let key = Self.key(token)
        entries.withLockedValue { entries in
            if entries.count >= capacity {
                entries = entries.filter { $0.value.claims.exp.value > now }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[key] = Entry(claims: claims, generation: generation)
        }
    }

    var count: Int { entries.withLockedValue(\.count) }

    /// Hashed over the string's own bytes: a header value always has them, so no copy of the token is made.
    static func key(_ token: String) -> SHA256Digest {
        token.utf8.withContiguousStorageIfAvailable { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
            ?? SHA256.hash(data: Array(token.utf8))
    }
}
