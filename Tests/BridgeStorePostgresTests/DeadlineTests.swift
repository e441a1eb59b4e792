import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import BridgeStorePostgres

/// A store call's deadline counts the database's silence, not the time the instance's own queue kept it from
/// hearing the answer. Runs alone (the Makefile's serial suites): it occupies every thread of the cooperative pool.
@Suite("Deadline")
struct DeadlineTests {
    struct Expired: Error {}

    /// Every thread of the cooperative pool is kept busy for `blocked` (as a saturated instance's are); the answer the
    /// work waits for arrives as the pool frees. The timer's wake-up has waited in the same queue the whole time, so
    /// a wall-clock deadline shorter than the blockage would fire first; the deadline counts none of that time.
    @Test func timeTheProcessCouldNotRunIsNotCounted() async throws {
        let blocked = Duration.milliseconds(1_500)
        let answer = try await Deadline.race(timeouts: [.milliseconds(500)], expired: { _ in Expired() }) {
            await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
                Self.occupyEveryPoolThread(for: blocked) { continuation.resume(returning: "answered") }
            }
        }
        #expect(answer == "answered")
    }

    /// A database that stays silent still runs out the deadline, at about the wall time it names on an idle pool.
    @Test func silenceRunsOutTheDeadline() async throws {
        let started = ContinuousClock.now
        await #expect(throws: Expired.self) {
            try await Deadline.race(timeouts: [.milliseconds(200)], expired: { _ in Expired() }) {
                try await Task.sleep(for: .seconds(60))
                return "never"
            }
        }
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    /// The deadlines are checked in turn: nil from `expired` keeps waiting for the next one.
    @Test func aLaterDeadlineAnswersWhenAnEarlierOneDoesNot() async throws {
        let asked = NIOLockedValueBox<[Int]>([])
        await #expect(throws: Expired.self) {
            try await Deadline.race(
                timeouts: [.milliseconds(100), .milliseconds(250)],
                expired: { index in
                    asked.withLockedValue { $0.append(index) }
                    return index == 0 ? nil : Expired()
                }
            ) {
                try await Task.sleep(for: .seconds(60))
                return "never"
            }
        }
        #expect(asked.withLockedValue { $0 } == [0, 1])
    }

    /// Starts one task per pool thread, each spinning until `duration` has passed from now; the last to finish calls
    /// `done` from its thread, so what `done` resumes is queued behind every wake-up that came due meanwhile.
    static func occupyEveryPoolThread(for duration: Duration, done: @escaping @Sendable () -> Void) {
        let width = ProcessInfo.processInfo.activeProcessorCount
        let until = ContinuousClock.now + duration
        let running = NIOLockedValueBox(width)
        for _ in 0..<width {
            Task.detached {
                while ContinuousClock.now < until {}
                if running.withLockedValue({ count in count -= 1; return count == 0 }) { done() }
            }
        }
    }
}
