import BridgeStore
import Foundation
import NIOConcurrencyHelpers

/// Store answers kept for a moment, so that a token used for a burst of requests (Office calls the bootstrapper
/// again and again) is looked up once rather than on every request. An answer is dropped as soon as the store
/// reports a change that could make it wrong (`Store.changeCounter`: revocations and user changes made through this
/// server take effect at once), and in any case after `maxAge`, the bound for changes made by another process on the
/// same database (`signin-bridge user passwd`, another server instance). A `maxAge` of zero keeps nothing.
final class RecentAnswers<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var storedAt: Date
        var changeCounter: UInt64
    }

    private let entries = NIOLockedValueBox<[Key: Entry]>([:])
    let maxAge: TimeInterval
    let capacity: Int

    init(maxAge: TimeInterval, capacity: Int = 10_000) {
        self.maxAge = maxAge
        self.capacity = capacity
    }

    /// The kept answer for `key`, if it is younger than `maxAge` at `now` and no change was counted since.
    func value(for key: Key, changeCounter: UInt64, at now: Date) -> Value? {
        guard maxAge > 0 else { return nil }
        return entries.withLockedValue { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.changeCounter == changeCounter, now >= entry.storedAt, now < entry.storedAt + maxAge else {
                entries[key] = nil
                return nil
            }
            return entry.value
        }
    }

    /// Keeps `value`. `changeCounter` must be the counter read *before* the store was asked, so that a change
    /// committed while the question was on its way makes the answer stale.
    func keep(_ value: Value, for key: Key, changeCounter: UInt64, at now: Date) {
        guard maxAge > 0 else { return }
        entries.withLockedValue { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(value: value, storedAt: now, changeCounter: changeCounter)
        }
    }

    /// Looks `key` up, asking `fetch` (the store) when nothing usable is kept.
    func value(
        for key: Key, store: any Store, at now: Date, fetch: () async throws -> Value
    ) async rethrows -> Value {
        let counter = store.changeCounter
        if let kept = value(for: key, changeCounter: counter, at: now) { return kept }
        let fetched = try await fetch()
        keep(fetched, for: key, changeCounter: counter, at: now)
        return fetched
    }
}
