@testable import BridgeStoreSQLite
import BridgeStoreTesting
import Foundation
import NIOConcurrencyHelpers
import Testing

/// Taking turns on one connection: one caller at a time, in arrival order, on the caller's own thread unless it asks
/// for the pool; a caller that finds it in use waits instead of running beside the holder.
@Suite("SQLiteSerialConnection")
struct SQLiteSerialConnectionTests {
    static func open() throws -> SQLiteSerialConnection {
        try SQLiteSerialConnection(path: try TemporaryDirectory.make().appendingPathComponent("turns.sqlite").path)
    }

    /// Counts callers inside a closure at once; any overlap is a broken turn.
    final class Overlap: Sendable {
        private let state = NIOLockedValueBox((inside: 0, most: 0, done: 0))
        func enter() { state.withLockedValue { $0.inside += 1; $0.most = max($0.most, $0.inside) } }
        func leave() { state.withLockedValue { $0.inside -= 1; $0.done += 1 } }
        var most: Int { state.withLockedValue { $0.most } }
        var done: Int { state.withLockedValue { $0.done } }
    }

    @Test func concurrentCallersNeverShareTheConnection() async throws {
        let connection = try Self.open()
        let overlap = Overlap()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for caller in 0..<200 {
                group.addTask {
                    try await connection.run(onThreadPool: caller % 5 == 0) { sqlite in
                        overlap.enter()
                        defer { overlap.leave() }
                        // Long enough that callers on the other cores arrive meanwhile.
                        _ = try sqlite.query("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) SELECT sum(i) FROM n")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(overlap.done == 200)
        #expect(overlap.most == 1)
        try await connection.close()
    }

    @Test func aCallerWaitingForItsTurnIsServedInArrivalOrder() async throws {
        let connection = try Self.open()
        let order = NIOLockedValueBox<[Int]>([])
        let holding = NIOLockedValueBox(true)
        // The first caller holds the turn on a pool thread until every other caller is queued.
        let first = Task {
            try await connection.run(onThreadPool: true) { _ in
                while holding.withLockedValue({ $0 }) { usleep(1_000) }
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(connection.runIfFree { _ in 1 } == nil, "the connection is in use: nothing may run beside the holder")
        var waiting: [Task<Void, any Error>] = []
        for caller in 0..<5 {
            waiting.append(Task { try await connection.run { _ in order.withLockedValue { $0.append(caller) } } })
            try await Task.sleep(for: .milliseconds(20))
        }
        holding.withLockedValue { $0 = false }
        try await first.value
        for task in waiting { try await task.value }
        #expect(order.withLockedValue { $0 } == [0, 1, 2, 3, 4])
        #expect(try connection.runIfFree { _ in 7 }?.get() == 7, "free again once every caller was served")
        try await connection.close()
    }

    #if os(Linux)
    @Test func aStepRunsOnTheCallersThreadUnlessItAsksForThePool() async throws {
        let connection = try Self.open()
        let inline = try await connection.run { _ in Self.threadName() }
        let pooled = try await connection.run(onThreadPool: true) { _ in Self.threadName() }
        // NIO names its blocking pool's threads "TP-#0", "TP-#1", … (the singleton's "SGLTN-TP-#0").
        #expect(!inline.contains("TP-#"), "\(inline)")
        #expect(pooled.contains("TP-#"), "\(pooled)")
        try await connection.close()
    }

    /// The kernel's name of the calling thread.
    static func threadName() -> String {
        (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }
    #endif
}
