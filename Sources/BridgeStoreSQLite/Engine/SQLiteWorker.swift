import NIOConcurrencyHelpers
import NIOPosix

/// A thread of its own that owns one `SQLiteConnection`: for work that waits on the disk and must never run on an
/// event loop, the periodic checkpoints (`WALCheckpointer`). Every use of the connection is a closure run there, in
/// the order submitted. Requests' steps use `SQLiteSerialConnection` instead, on their own threads.
final class SQLiteWorker: Sendable {
    private let thread: NIOThreadPool
    /// Reachable from the worker's thread only.
    private let connection: ConfinedConnection

    init(path: String) throws {
        connection = ConfinedConnection(try SQLiteConnection(path: path))
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
