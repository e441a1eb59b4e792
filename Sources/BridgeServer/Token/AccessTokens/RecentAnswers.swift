import BridgeStore
import Foundation
import NIOConcurrencyHelpers

/// `RecentAnswers` sweeps nothing below this many entries.
private let minimumSweep = 64

/// Store answers kept for a moment, so that a token used for a burst of requests (Office calls the bootstrapper
/// again and again) is looked up once rather than on every request. An answer is dropped as soon as the store
/// reports a change that could make it wrong (`StoreChanges.changeCounter`: revocations and user changes made through this
/// server take effect at once), and in any case after `maxAge`, the bound for changes made by another process on the
/// same database (`signin-bridge user passwd`, another server instance). A `maxAge` of zero keeps nothing.
final class RecentAnswers<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var storedAt: Date
        var changeCounter: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// The size at which `keep` next drops expired entries: twice what was left the last time, so the sweep is
        /// amortised O(1) per answer and the memory stays near the answers of the last `maxAge`, instead of growing
        /// to `capacity` with answers nobody may use any more (tens of thousands of tokens per soak).
        var sweepAt = minimumSweep
    }

    private let state = NIOLockedValueBox(State())
    let maxAge: TimeInterval
    let capacity: Int

    init(maxAge: TimeInterval, capacity: Int = 10_000) {
        self.maxAge = maxAge
        self.capacity = capacity
    }

    /// The kept answer for `key`, if it is younger than `maxAge` at `now` and no change was counted since.
    func value(for key: Key, changeCounter: UInt64, at now: Date) -> Value? {
        guard maxAge > 0 else { return nil }
        return state.withLockedValue { state in
            guard let entry = state.entries[key] else { return nil }
            guard entry.changeCounter == changeCounter, isFresh(entry, at: now) else {
                state.entries[key] = nil
                return nil
            }
            return entry.value
        }
    }

    /// Keeps `value`. `changeCounter` must be the counter read *before* the store was asked, so that a change
    /// committed while the question was on its way makes the answer stale.
    func keep(_ value: Value, for key: Key, changeCounter: UInt64, at now: Date) {
        guard maxAge > 0 else { return }
        state.withLockedValue { state in
            if state.entries.count >= min(state.sweepAt, capacity) {
                state.entries = state.entries.filter { isFresh($0.value, at: now) }
                if state.entries.count >= capacity { state.entries = [:] }
                state.sweepAt = max(minimumSweep, 2 * state.entries.count)
            }
            state.entries[key] = Entry(value: value, storedAt: now, changeCounter: changeCounter)
        }
    }

    /// Entries held now, fresh or not yet swept (for tests).
    var count: Int { state.withLockedValue(\.entries.count) }

    private func isFresh(_ entry: Entry, at now: Date) -> Bool {
        now >= entry.storedAt && now < entry.storedAt + maxAge
    }

    /// Looks `key` up, asking `fetch` (the store) when nothing usable is kept.
    func value(
        for key: Key, store: any StoreChanges, at now: Date, fetch: () async throws -> Value
    ) async rethrows -> Value {
        let counter = store.changeCounter
        if let kept = value(for: key, changeCounter: counter, at: now) { return kept }
        let fetched = try await fetch()
        keep(fetched, for: key, changeCounter: counter, at: now)
        return fetched
    }
}
