import BridgeStore
import NIOConcurrencyHelpers
import Testing

/// The group commit itself: while one batch runs, the writes that arrive wait and go together in the next one, and
/// every caller gets its own item's answer.
@Suite("WriteBatcher")
struct WriteBatcherTests {
    /// Records the batches it was given; the first batch is held until `holdFirst` says the others have queued.
    final class Recorder: Sendable {
        let batches = NIOLockedValueBox<[[Int]]>([])
        let holdFirst: @Sendable () async -> Void

        init(holdFirst: @escaping @Sendable () async -> Void = {}) { self.holdFirst = holdFirst }

        func run(_ items: [Int]) async throws -> [Result<Int, any Error>] {
            let isFirst = batches.withLockedValue { batches in
                batches.append(items)
                return batches.count == 1
            }
            // Hold the first batch so that the others queue up behind it.
            if isFirst { await holdFirst() }
            if items.contains(13) { throw Unlucky() }
            return items.map { $0 % 7 == 0 ? .failure(Divisible()) : .success($0 * 10) }
        }
    }

    struct Unlucky: Error {}
    struct Divisible: Error {}

    @Test func writesArrivingDuringABatchGoTogetherInTheNext() async throws {
        let batcher = WriteBatcher<Int, Int>(maxBatch: 16)
        // Waits on the events, not on a clock: the first batch runs until the 39 others wait behind it, and they are
        // submitted only once it runs (a busy machine took longer than the 500 ms this once slept).
        let recorder = Recorder { await Self.until { batcher.queuedCount == 39 } }
        let answers = await withTaskGroup(of: (Int, Result<Int, any Error>).self) { group in
            group.addTask { (1, await Result { try await batcher.submit(1, run: recorder.run) }) }
            await Self.until { recorder.batches.withLockedValue { !$0.isEmpty } }
            for item in 2...40 {
                group.addTask { (item, await Result { try await batcher.submit(item, run: recorder.run) }) }
            }
            return await group.reduce(into: [Int: Result<Int, any Error>]()) { $0[$1.0] = $1.1 }
        }
        let batches = recorder.batches.withLockedValue { $0 }
        #expect(batches.first == [1])
        // 39 items queued behind the first batch: at most 16 per batch and a power of two each, so 16, 16, 4, 2, 1.
        #expect(batches.dropFirst().map(\.count) == [16, 16, 4, 2, 1])
        #expect(Set(batches.flatMap { $0 }) == Set(1...40))
        for item in 1...40 {
            let batchOf13 = batches.first { $0.contains(13) } ?? []
            switch answers[item] {
            case .success(let value): #expect(value == item * 10 && item % 7 != 0 && !batchOf13.contains(item))
            case .failure(let error as Divisible): #expect(item % 7 == 0, "\(error)")
            case .failure(let error as Unlucky): #expect(batchOf13.contains(item), "\(error)")
            default: Issue.record("item \(item) got no answer")
            }
        }
    }
}

extension WriteBatcherTests {
    /// Polls `condition` until it holds, or gives up after a minute (a broken batcher then fails the expectations
    /// instead of hanging the suite); no verdict depends on how long a busy machine takes.
    static func until(_ condition: @Sendable () -> Bool) async {
        let giveUp = ContinuousClock.now + .seconds(60)
        while !condition(), ContinuousClock.now < giveUp { try? await Task.sleep(for: .milliseconds(1)) }
    }

    @Test func batchSizesArePowersOfTwoUpToTheLimit() {
        #expect(WriteBatcher<Int, Int>.batchSize(queued: 0, maxBatch: 128) == 0)
        #expect((1...300).map { WriteBatcher<Int, Int>.batchSize(queued: $0, maxBatch: 128) } == (1...300).map { queued in
            var size = 1
            while size * 2 <= min(queued, 128) { size *= 2 }
            return size
        })
        #expect(WriteBatcher<Int, Int>.batchSize(queued: 100, maxBatch: 48) == 32)
    }

    /// A statement over arrays (the PostgreSQL store's) takes whatever is queued, up to the limit.
    @Test func batchSizesOfAnyCountWhenNotPowersOfTwo() {
        #expect(WriteBatcher<Int, Int>.batchSize(queued: 0, maxBatch: 64, powerOfTwo: false) == 0)
        #expect((1...100).map { WriteBatcher<Int, Int>.batchSize(queued: $0, maxBatch: 64, powerOfTwo: false) }
            == (1...100).map { min($0, 64) })
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
