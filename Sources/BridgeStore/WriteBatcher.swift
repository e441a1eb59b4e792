import NIOConcurrencyHelpers

/// Group commit for one kind of write. The caller that finds no batch running runs one itself, on its own thread:
/// its item and whatever was queued (up to `maxBatch`), handed to `run` as one batch. Callers that arrive while a
/// batch runs queue their item and wait; the runner then runs their batch too and answers them, for up to
/// `maxRounds` batches, before it wakes the first queued caller to go on (so that its own answer is not held up for
/// long). Under load, N concurrent writes then cost one statement and one commit instead of N, each waiting for the
/// lock in turn (the classic group commit of write-ahead logs; sqlite.org/faq.html#q19 on why commits are the cost).
/// With no load a batch has one item and costs nothing more than the write itself. Both stores use it: SQLite for
/// one transaction of N statements, PostgreSQL for one statement over arrays of N rows (one round trip, one plan
/// set-up, one commit).
///
/// `run` returns one result per item, in order; a thrown error fails every item of the batch. Every caller of one
/// batcher passes the same `run` (it is a parameter rather than a property so that it may use the store that owns
/// the batcher without a reference cycle).
package final class WriteBatcher<Item: Sendable, Output: Sendable>: Sendable {
    package typealias Run = @Sendable ([Item]) async throws -> [Result<Output, any Error>]

    /// What a queued caller is woken with: its answer, or its turn to run the next batch.
    private enum Wake {
        case answered(Result<Output, any Error>)
        case runNextBatch
    }

    private struct Waiting {
        var item: Item
        var continuation: CheckedContinuation<Wake, Never>
    }

    private struct State {
        var queue: [Waiting] = []
        var isRunning = false
    }

    private let state = NIOLockedValueBox(State())
    private let maxBatch: Int
    private let powerOfTwoBatches: Bool

    /// `maxBatch` bounds one statement's size (SQLite: its bind count must stay under 32,766 parameters).
    /// `powerOfTwoBatches`: see `batchSize`; a statement that takes its rows as arrays has one text for any count.
    package init(maxBatch: Int, powerOfTwoBatches: Bool = true) {
        precondition(maxBatch > 0)
        self.maxBatch = maxBatch
        self.powerOfTwoBatches = powerOfTwoBatches
    }

    /// How many writes wait for the running batch to finish (tests wait on it instead of on a clock).
    package var queuedCount: Int { state.withLockedValue { $0.queue.count } }

    package func submit(_ item: Item, run: @escaping Run) async throws -> Output {
        let runsNow = state.withLockedValue { state in
            guard !state.isRunning else { return false }
            state.isRunning = true
            return true
        }
        if !runsNow {
            let wake = await withCheckedContinuation { (continuation: CheckedContinuation<Wake, Never>) in
                let runsNow = state.withLockedValue { state in
                    guard state.isRunning else {
                        state.isRunning = true
                        return true
                    }
                    state.queue.append(Waiting(item: item, continuation: continuation))
                    return false
                }
                if runsNow { continuation.resume(returning: .runNextBatch) }
            }
            if case .answered(let result) = wake { return try result.get() }
        }
        return try await runBatch(startingWith: item, run).get()
    }

    /// The largest power of two that is at most both `queued` and `maxBatch` (0 for an empty queue). A batch's SQL
    /// text depends on its row count, and each text stays prepared on its connection (`SQLiteConnection`): with any
    /// count allowed, one kind of batch could leave 128 statements prepared, and a 128-statement set once held 9.5 MiB
    /// (sqlite3_memory_used). Powers of two leave 8 per kind; what is left in the queue goes in the next batches.
    package static func batchSize(queued: Int, maxBatch: Int, powerOfTwo: Bool = true) -> Int {
        let limit = min(queued, maxBatch)
        guard limit > 0, powerOfTwo else { return limit }
        return 1 << (Int.bitWidth - 1 - limit.leadingZeroBitCount)
    }

    /// Batches one runner runs before it hands the running on.
    package static var maxRounds: Int { 4 }

    /// Runs the batch that starts with `item`, then the batches queued meanwhile (up to `maxRounds` in all), answering
    /// their callers, and passes the running on to the next queued caller.
    private func runBatch(startingWith item: Item, _ run: Run) async -> Result<Output, any Error> {
        var own: Result<Output, any Error>?
        for _ in 0..<Self.maxRounds {
            // The first batch has a place for the runner's own item.
            let ownPlace = own == nil ? 1 : 0
            let others = state.withLockedValue { state -> [Waiting] in
                let count =
                    Self.batchSize(
                        queued: state.queue.count + ownPlace, maxBatch: maxBatch, powerOfTwo: powerOfTwoBatches)
                    - ownPlace
                defer { state.queue.removeFirst(count) }
                return Array(state.queue.prefix(count))
            }
            if own != nil && others.isEmpty { break }
            let items = own == nil ? [item] + others.map(\.item) : others.map(\.item)
            var results: [Result<Output, any Error>]
            do {
                results = try await run(items)
                precondition(results.count == items.count, "a batch must answer every item")
            } catch {
                results = Array(repeating: .failure(error), count: items.count)
            }
            if own == nil { own = results.removeFirst() }
            for (waiting, result) in zip(others, results) { waiting.continuation.resume(returning: .answered(result)) }
        }
        let next = state.withLockedValue { state -> Waiting? in
            guard !state.queue.isEmpty else {
                state.isRunning = false
                return nil
            }
            return state.queue.removeFirst()
        }
        next?.continuation.resume(returning: .runNextBatch)
        return own!
    }
}
