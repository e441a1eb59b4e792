import NIOConcurrencyHelpers

/// Runs `work` in a task of its own and answers with its result, or with the error `expired()` gives once `timeout`
/// has passed (nil: keep waiting). The caller never waits for the work to notice its cancellation: a pool request
/// that does not answer its cancellation must not turn a deadline into a hang.
enum Deadline {
    static func race<T: Sendable>(
        timeout: Duration, expired: @escaping @Sendable () -> (any Error)?,
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
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled, let error = expired() else { return }
                    Self.answer(.failure(error), state)
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
