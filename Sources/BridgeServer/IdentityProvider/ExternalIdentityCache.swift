import Crypto
import Foundation
import NIOConcurrencyHelpers

/// Verdicts on external tokens kept per token SHA-256, so Office's repeated bootstraps with one token cost a hash and
/// a lookup: no signature check, no network call, as our own tokens' `VerifiedClaimsCache`. An accepted token is kept
/// until it stops being usable (`ExternalIdentity.usableUntil`, bounded by introspection's `cacheSeconds`); a
/// refusal only for a short while (an `active: false` answer), so a token the provider reactivates is not refused long.
final class ExternalIdentityCache: Sendable {
    enum Verdict: Sendable, Hashable {
        case accepted(ExternalIdentity)
        case refused(ExternalTokenRejection)
    }

    private struct Entry {
        var verdict: Verdict
        var until: Date
    }

    private let entries = NIOLockedValueBox<[SHA256Digest: Entry]>([:])
    let capacity: Int

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    func verdict(for token: String, at now: Date) -> Verdict? {
        let key = VerifiedClaimsCache.key(token)
        return entries.withLockedValue { entries in
            guard let entry = entries[key] else { return nil }
            guard now < entry.until else {
                entries[key] = nil
                return nil
            }
            return entry.verdict
        }
    }

    /// When full, entries past their end go first; if none has, everything goes (the next uses verify again).
    func keep(_ verdict: Verdict, for token: String, until: Date, at now: Date) {
        guard capacity > 0, until > now else { return }
        let key = VerifiedClaimsCache.key(token)
        entries.withLockedValue { entries in
            if entries.count >= capacity {
                entries = entries.filter { $0.value.until > now }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[key] = Entry(verdict: verdict, until: until)
        }
    }

    var count: Int { entries.withLockedValue(\.count) }
}
