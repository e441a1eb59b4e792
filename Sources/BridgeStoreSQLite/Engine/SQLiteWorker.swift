import NIOConcurrencyHelpers
import NIOPosix

/// A thread of its own that owns one `SQLiteConnection`. Every use of the connection is a closure run there, in the
/// order submitted, so a whole store step (a transaction of several statements) costs the caller one hop, and two
/// steps never interleave on one connection. sqlite-nio paid a thread-pool job and a continuation per statement.
final class SQLiteWorker: Sendable {
    private let thread: NIOThreadPool
    private let connection: Confined

    /// The connection, reachable from the worker's thread only.
    private final class Confined: @unchecked Sendable {
        let connection: SQLiteConnection
        init(_ connection: SQLiteConnection) { self.connection = connection }
    }

    init(path: String) throws {
        connection = Confined(try SQLiteConnection(path: path))
        thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
    }

    func run<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        let confined = connection
        return try await thread.runIfActive { try body(confined.connection) }
    }

    /// Closes the connection after every closure submitted before, then stops the thread.
    func close() async throws {
        try await run { $0.close() }
        try await thread.shutdownGracefully()
    }
}

/// Several read connections, each on its own worker: in WAL mode readers never wait for the writer, nor for each
/// other (sqlite.org/wal.html#concurrency). Reads go round the workers in turn.
final class SQLiteReaders: Sendable {
    private let workers: [SQLiteWorker]
    private let next = NIOLockedValueBox(0)

    init(path: String, count: Int, prepare: @escaping @Sendable (SQLiteConnection) throws -> Void) async throws {
        var workers: [SQLiteWorker] = []
        do {
            for _ in 0..<count {
                let worker = try SQLiteWorker(path: path)
                workers.append(worker)
                try await worker.run(prepare)
            }
        } catch {
            for worker in workers { try? await worker.close() }
            throw error
        }
        self.workers = workers
    }

    func run<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        let index = next.withLockedValue { index in
            defer { index = (index + 1) % workers.count }
            return index
        }
        return try await workers[index].run(body)
    }

    func close() async throws {
        var failure: (any Error)?
        for worker in workers {
            do { try await worker.close() } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }
}
