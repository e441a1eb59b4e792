import BridgeStore
import NIOConcurrencyHelpers

/// Group commit for one kind of write. Callers queue their item and wait; whenever no batch is running, one task takes
/// everything queued (up to `maxBatch`) and hands it to `run` as one batch, again until the queue is empty. Under
/// load, N concurrent writes then cost one database round trip and one commit instead of N, each waiting for the
/// lock in turn (the classic group commit of write-ahead logs; sqlite.org/faq.html#q19 on why commits are the cost).
/// With no load a batch has one item, so the latency of a lone write is one task hop more than before. A batch
/// holds a power of two of items (`batchSize`), so the statements prepared for batches stay few.
///
/// `run` returns one result per item, in order; a thrown error fails every item of the batch. Every caller of one
/// batcher passes the same `run` (it is a parameter rather than a property so that it may use the store that owns
/// the batcher without a reference cycle).
final class WriteBatcher<Item: Sendable, Output: Sendable>: Sendable {
    typealias Run = @Sendable ([Item]) async throws -> [Result<Output, any Error>]

    private struct Waiting {
        var item: Item
        var continuation: CheckedContinuation<Output, any Error>
    }

    private struct State {
        var queue: [Waiting] = []
        var isRunning = false
    }

    private let state = NIOLockedValueBox(State())
    private let maxBatch: Int

    /// `maxBatch` bounds one statement's size (its bind count must stay under SQLite's 32,766 parameters).
    init(maxBatch: Int) {
        precondition(maxBatch > 0)
        self.maxBatch = maxBatch
    }

    func submit(_ item: Item, run: @escaping Run) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            let startsRunner = state.withLockedValue { state in
                state.queue.append(Waiting(item: item, continuation: continuation))
                guard !state.isRunning else { return false }
                state.isRunning = true
                return true
            }
            if startsRunner {
                // A task of its own: the runner must outlive a cancelled caller, whose item others may share a batch with.
                Task { await self.drain(run) }
            }
        }
    }

    /// The largest power of two that is at most both `queued` and `maxBatch` (0 for an empty queue). A batch's SQL
    /// text depends on its row count, and each text stays prepared on its connection (`SQLiteConnection`): with any
    /// count allowed, one kind of batch could leave 128 statements prepared, and the bootstrap's 128 hold 9.5 MiB
    /// (sqlite3_memory_used). Powers of two leave 8 per kind; what is left in the queue goes in the next batches.
    static func batchSize(queued: Int, maxBatch: Int) -> Int {
        let limit = min(queued, maxBatch)
        guard limit > 0 else { return 0 }
        return 1 << (Int.bitWidth - 1 - limit.leadingZeroBitCount)
    }

    private func drain(_ run: Run) async {
        while true {
            let batch = state.withLockedValue { state -> [Waiting] in
                let count = Self.batchSize(queued: state.queue.count, maxBatch: maxBatch)
                let batch = Array(state.queue.prefix(count))
                state.queue.removeFirst(count)
                if batch.isEmpty { state.isRunning = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                let results = try await run(batch.map(\.item))
                precondition(results.count == batch.count, "a batch must answer every item")
                for (waiting, result) in zip(batch, results) { waiting.continuation.resume(with: result) }
            } catch {
                for waiting in batch { waiting.continuation.resume(throwing: error) }
            }
        }
    }
}
