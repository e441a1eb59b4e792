import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// One `SQLiteConnection` that callers take turns on, on their own threads. A request's store step runs on the event
/// loop that received the request, with no hop to a database thread and back (two thread wake-ups per step before;
/// `docs/store.md` has the measurements).
///
/// A caller that finds the connection in use does not block its thread: it queues its closure and its task waits.
/// The caller that has the connection runs the queued closures after its own, before letting go (flat combining),
/// and each waiting task is resumed with its answer. Handing the connection itself to the waiting task instead left
/// it idle until that task's thread got round to it, while every other caller queued behind it (a lock convoy:
/// 27% fewer code flows a second than the database threads it replaced, in the same run). Closures are short and
/// synchronous (a prepared statement, or one step's transaction); work that may take long (a purge, a checkpoint that
/// syncs the disk) passes `onThreadPool` and holds the connection on a thread of NIO's blocking pool, so no event
/// loop stalls behind it.
final class SQLiteSerialConnection: Sendable {
    private enum Waiting {
        /// A closure to run for a waiting caller; it resumes that caller itself.
        case closure(@Sendable (SQLiteConnection) -> Void)
        /// A caller that needs the connection across an await (`onThreadPool`): it is handed the connection.
        case handOver(CheckedContinuation<Void, Never>)
    }

    private struct State {
        var isInUse = false
        var waiting = CircularBuffer<Waiting>()
    }

    private let state = NIOLockedValueBox(State())
    /// Touched only by the caller that has it (the connection is opened without SQLite's mutexes).
    private let confined: ConfinedConnection

    init(path: String) throws {
        confined = ConfinedConnection(try SQLiteConnection(path: path))
    }

    /// Runs `body` with the connection, on this thread or (when it is in use) on the thread of the caller that has
    /// it; on a thread of NIO's blocking pool with `onThreadPool`.
    func run<T: Sendable>(
        onThreadPool: Bool = false, _ body: @escaping @Sendable (SQLiteConnection) throws -> T
    ) async throws -> T {
        if onThreadPool { return try await runOnThreadPool(body) }
        if let result = runIfFree(body) { return try result.get() }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let closure: @Sendable (SQLiteConnection) -> Void = { connection in
                continuation.resume(with: Result { try body(connection) })
            }
            if takeOrQueue(.closure(closure)) {
                closure(confined.connection)
                letGo()
            }
        }
    }

    /// Runs `body` now if nobody has the connection; nil when somebody does.
    func runIfFree<T>(_ body: (SQLiteConnection) throws -> T) -> Result<T, any Error>? {
        guard takeIfFree() else { return nil }
        defer { letGo() }
        return Result { try body(confined.connection) }
    }

    /// Closes the connection after every caller that was waiting before.
    func close() async throws {
        try await run { $0.close() }
    }

    private func runOnThreadPool<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        if !takeIfFree() {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if takeOrQueue(.handOver(continuation)) { continuation.resume() }
            }
        }
        defer { letGo() }
        let confined = self.confined
        return try await NIOThreadPool.singleton.runIfActive { try body(confined.connection) }
    }

    private func takeIfFree() -> Bool {
        state.withLockedValue { state in
            guard !state.isInUse else { return false }
            state.isInUse = true
            return true
        }
    }

    /// Takes the connection if it is free (true), else queues `waiting` for the holder's `letGo` (false).
    private func takeOrQueue(_ waiting: Waiting) -> Bool {
        state.withLockedValue { state in
            guard state.isInUse else {
                state.isInUse = true
                return true
            }
            state.waiting.append(waiting)
            return false
        }
    }

    /// How many queued closures one caller runs for others before it passes that on to a task of its own, so that
    /// its own answer is not held up for long.
    static let maxRunForOthers = 64

    /// Runs the closures queued meanwhile, then frees the connection, or hands it to a caller waiting to hold it.
    private func letGo() {
        for _ in 0..<Self.maxRunForOthers {
            let next = state.withLockedValue { state -> Waiting? in
                guard let next = state.waiting.popFirst() else {
                    state.isInUse = false
                    return nil
                }
                return next
            }
            switch next {
            case nil: return
            case .closure(let closure): closure(confined.connection)
            case .handOver(let continuation):
                continuation.resume()
                return
            }
        }
        Task { self.letGo() }
    }
}

/// Several read connections: in WAL mode readers never wait for the writer, nor for each other
/// (sqlite.org/wal.html#concurrency). A read takes whichever connection is free, on the caller's thread; only when all
/// are in use does it wait for one, in turn.
final class SQLiteReaders: Sendable {
    private let connections: [SQLiteSerialConnection]
    private let next = NIOLockedValueBox(0)

    init(path: String, count: Int, prepare: @escaping @Sendable (SQLiteConnection) throws -> Void) async throws {
        var connections: [SQLiteSerialConnection] = []
        do {
            for _ in 0..<count {
                let connection = try SQLiteSerialConnection(path: path)
                connections.append(connection)
                try await connection.run(prepare)
            }
        } catch {
            for connection in connections { try? await connection.close() }
            throw error
        }
        self.connections = connections
    }

    func run<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        // The first free one, so that under light load one connection (and its page cache) does the reads.
        for connection in connections {
            if let result = connection.runIfFree(body) { return try result.get() }
        }
        let waitOn = next.withLockedValue { index in
            defer { index = (index + 1) % connections.count }
            return index
        }
        return try await connections[waitOn].run(body)
    }

    func close() async throws {
        var failure: (any Error)?
        for connection in connections {
            do { try await connection.close() } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }
}
