import NIOConcurrencyHelpers

/// Runs `work` in a task of its own and answers with its result, or with the error `expired(n)` gives once
/// `timeouts[n]` has passed (nil: keep waiting for the next one, or for good after the last). The caller never waits
/// for the work to notice its cancellation: a pool request that does not answer its cancellation must not turn a
/// deadline into a hang. One timer checks every deadline in turn, so a call costs two tasks however many there are.
///
/// A deadline counts the time this process could have heard the answer, not the wall clock: the timer sleeps in
/// slices and counts each at its nominal length, so the time its wake-up spent queued behind the process's own work
/// (a saturated cooperative pool, a CPU shared with other processes) is not blamed on the database. A call's answer
/// waits in that same queue, so on an idle machine a deadline is the wall time it names, and on a busy one it
/// stretches by the delay every task of the process is suffering.
enum Deadline {
    /// How often the timer wakes to count: each wake-up's own delay is measured against this, so shorter slices follow
    /// the process's queue more closely; 50 ms costs a waiting call 20 wake-ups a second and an answered one none.
    static let slice = Duration.milliseconds(50)

    static func race<T: Sendable>(
        timeouts: [Duration], expired: @escaping @Sendable (Int) -> (any Error)?,
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let state = NIOLockedValueBox(State<T>())
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                state.withLockedValue { $0.continuation = continuation }
                let worker = Task {
                    let result: Result<T, any Error>
                    do { result = .success(try await work()) } catch { result = .failure(error) }
                    Self.answer(result, state)
                }
                let timer = Task {
                    var waited = Duration.zero
                    for (index, timeout) in timeouts.enumerated() {
                        guard await sleep(for: timeout - waited) else { return }
                        waited = timeout
                        if let error = expired(index) { return Self.answer(.failure(error), state) }
                    }
                }
                let cancelled = state.withLockedValue { state in
                    state.tasks = [worker, timer]
                    return state.cancelled
                }
                if cancelled { worker.cancel() }
            }
        } onCancel: {
            let tasks = state.withLockedValue { state in
                state.cancelled = true
                return state.tasks
            }
            tasks.first?.cancel()
        }
    }

    /// Sleeps until `duration` of the process's own running time has passed (see the type's comment): false when
    /// cancelled first.
    static func sleep(for duration: Duration) async -> Bool {
        var counted = Duration.zero
        while counted < duration {
            let step = min(slice, duration - counted)
            try? await Task.sleep(for: step)
            guard !Task.isCancelled else { return false }
            counted += step
        }
        return true
    }

    private struct State<T: Sendable>: Sendable {
        var continuation: CheckedContinuation<T, any Error>?
        var tasks: [Task<Void, Never>] = []
        var cancelled = false
    }

    /// The first answer resumes the caller and cancels both tasks; later ones are dropped.
    private static func answer<T>(_ result: Result<T, any Error>, _ state: NIOLockedValueBox<State<T>>) {
        let (continuation, tasks) = state.withLockedValue { state in
            defer { state.continuation = nil }
            return (state.continuation, state.tasks)
        }
        guard let continuation else { return }
        for task in tasks { task.cancel() }
        continuation.resume(with: result)
    }
}
