import BridgeStore
import CSQLite
import Foundation
import NIOConcurrencyHelpers

/// The embedded default `Store`: one SQLite file in WAL mode, migrations applied on open. Every protocol call is
/// atomic: writes run in `BEGIN IMMEDIATE … COMMIT` on the writer connection, so they stay atomic when several
/// processes share the file (`signin-bridge token issue` while `serve` runs).
///
/// The engine is SQLite's C API behind a thin wrapper (`SQLiteConnection`): one writer connection that runs each
/// step's whole transaction in one closure, read connections that never wait for it, and statements prepared once.
/// Callers take turns on a connection and run their step on their own thread (`SQLiteSerialConnection`): a request's
/// step costs no thread hop. Concurrent writes of one kind share one transaction (`WriteBatcher`, group commit).
/// Measurements of each design (sqlite-nio, a database thread per connection, steps on the caller's thread) are in
/// `docs/store.md`.
public final class SQLiteStore: Store {
    /// How much a commit waits for the disk: `normal` (the default) or `full`, as for every store.
    public typealias Durability = StoreDurability

    let writer: SQLiteSerialConnection
    let readers: SQLiteReaders
    let checkpointer: WALCheckpointer
    let codeConsumptions = WriteBatcher<CodeConsumption, (AuthorizationCodeRecord, GrantRecord)?>(maxBatch: maxBatch)
    let tokenResponses = WriteBatcher<TokenResponseRecords, Void>(maxBatch: maxBatch)
    private let isClosed = NIOLockedValueBox(false)
    // A lock rather than Synchronization's Atomic, which needs macOS 15 and the package supports macOS 14.
    private let changes = NIOLockedValueBox<UInt64>(0)

    public var changeCounter: UInt64 { changes.withLockedValue { $0 } }

    private let trips = NIOLockedValueBox<UInt64>(0)

    /// Transactions and lone statements (reads or writes) run for callers; a group-committed batch counts once.
    public var roundTrips: UInt64 { trips.withLockedValue { $0 } }
    /// SQLite's own allocator count, for every connection of the process (https://sqlite.org/c3ref/memory_highwater.html).
    public var engineMemoryBytes: Int? { Int(sqlite3_memory_used()) }

    /// Called after the commit of a change that `changeCounter` counts (never before: a reader that saw the old
    /// counter must also have read the old data, so its answer is dropped).
    func noteChange() {
        changes.withLockedValue { $0 += 1 }
    }

    /// Read connections: two, one per core of the machines this is measured on; reads of one step are one statement.
    static let readerCount = 2

    /// Page cache per connection (sqlite.org/pragma.html#pragma_cache_size; SQLite's default is 2,000 KiB each, which
    /// the four connections fill as the file grows, so the heap creeps up for as long as the database does). The
    /// writer keeps the default; a reader's lookups are by random digest, so a bigger cache mostly holds pages read
    /// once, and a miss is a read from the OS page cache.
    static let readerCacheKiB = 1024
    static let checkpointerCacheKiB = 128

    /// Log length (pages) after which the writer restarts the log (`WALCheckpointer.restartIfLong`).
    let walRestartFrames: Int

    private init(writer: SQLiteSerialConnection, readers: SQLiteReaders, checkpointer: WALCheckpointer, walRestartFrames: Int) {
        self.writer = writer
        self.readers = readers
        self.checkpointer = checkpointer
        self.walRestartFrames = walRestartFrames
    }

    /// Opens (creating folders and file if needed) the database at `path` and applies pending migrations.
    public static func open(path: String, durability: Durability = .normal) async throws -> SQLiteStore {
        try await open(path: path, durability: durability, walRestartFrames: WALCheckpointer.restartFrames)
    }

    /// How long a connection waits for another's lock (another process's writer, or a checkpoint) before failing.
    static let busyTimeoutMilliseconds = 5000

    /// `open`, with the log length that makes the writer restart the log (WALCheckpointer) chosen: tests make it small.
    static func open(
        path: String, durability: Durability, walRestartFrames: Int,
        walRestartWaitMilliseconds: Int = WALCheckpointer.restartWaitMilliseconds
    ) async throws -> SQLiteStore {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let writer = try SQLiteSerialConnection(path: path)
        do {
            try await writer.run { connection in
                // Sleeps while another process holds the lock, instead of failing at once.
                try connection.query("PRAGMA busy_timeout = \(Self.busyTimeoutMilliseconds)")
                try connection.query("PRAGMA journal_mode = WAL")
                try connection.query("PRAGMA synchronous = \(durability == .full ? "FULL" : "NORMAL")")
                try connection.query("PRAGMA foreign_keys = ON")
                // Checkpoints run beside the writer or between its steps (WALCheckpointer), never inside a commit.
                try connection.query("PRAGMA wal_autocheckpoint = 0")
                connection.countWALPages()
                // After the log restarts, its file is cut back to this size: a one-off long log (a large purge, a
                // migration) does not keep its disk space (sqlite.org/pragma.html#pragma_journal_size_limit).
                try connection.query("PRAGMA journal_size_limit = \(walRestartFrames * 4096 * 2)")
                try Self.migrate(connection)
            }
        } catch {
            try? await writer.close()
            throw error
        }
        let readers: SQLiteReaders
        let checkpoints: SQLiteWorker
        do {
            readers = try await SQLiteReaders(path: path, count: readerCount) { connection in
                try connection.query("PRAGMA busy_timeout = \(Self.busyTimeoutMilliseconds)")
                try connection.query("PRAGMA query_only = ON")
                try connection.query("PRAGMA cache_size = -\(Self.readerCacheKiB)")
            }
            checkpoints = try SQLiteWorker(path: path)
            try await checkpoints.run { connection in
                try connection.query("PRAGMA busy_timeout = \(Self.busyTimeoutMilliseconds)")
                // A checkpoint copies WAL frames into the file without going through this connection's page cache.
                try connection.query("PRAGMA cache_size = -\(Self.checkpointerCacheKiB)")
            }
        } catch {
            try? await writer.close()
            throw error
        }
        return SQLiteStore(
            writer: writer, readers: readers, checkpointer: WALCheckpointer(
                checkpoints: checkpoints, interval: .milliseconds(250), restartWait: walRestartWaitMilliseconds),
            walRestartFrames: walRestartFrames)
    }

    /// Applies the migrations newer than the file's `user_version`, in one transaction.
    private static func migrate(_ connection: SQLiteConnection) throws {
        try connection.query("BEGIN IMMEDIATE")
        do {
            let version = try connection.query("PRAGMA user_version").first?.column("user_version")?.integer ?? 0
            for (index, statements) in SQLiteSchema.migrations.enumerated() where index >= version {
                for statement in statements { try connection.query(statement) }
                try connection.query("PRAGMA user_version = \(index + 1)")
            }
            try connection.query("COMMIT")
        } catch {
            _ = try? connection.query("ROLLBACK")
            throw error
        }
    }

    public func checkHealth() async throws {
        _ = try await read("SELECT count(*) AS n FROM grants WHERE 0")
    }

    public func close() async throws {
        guard isClosed.withLockedValue({ closed in defer { closed = true }; return !closed }) else { return }
        // In a fresh task: closing must happen even when the caller is being cancelled (graceful shutdown). Each
        // worker closes its connection after the closures queued before, so a running transaction finishes first.
        let (readers, writer, checkpointer) = (self.readers, self.writer, self.checkpointer)
        let closing = Task {
            var failure: (any Error)?
            do { try await checkpointer.stop() } catch { failure = error }
            do { try await readers.close() } catch { failure = failure ?? error }
            do { try await writer.close() } catch { failure = failure ?? error }
            if let failure { throw failure }
        }
        try await closing.value
    }

    // MARK: plumbing

    /// The writer connection inside one transaction.
    struct Transaction {
        let connection: SQLiteConnection

        @discardableResult
        func query(_ sql: String, _ binds: [SQLiteData] = []) throws -> [SQLiteRow] {
            try connection.query(sql, binds)
        }

        /// Rows changed by the last INSERT, UPDATE or DELETE of this transaction.
        func changes() -> Int { connection.changes }
    }

    /// Runs `body` in `BEGIN IMMEDIATE … COMMIT` on the writer connection, rolling back on any error. Constraint
    /// violations become `StoreError`s naming `what`. `onThreadPool` for a step that may take long (the purge), so
    /// that it does not hold up an event loop.
    @discardableResult
    func transaction<T: Sendable>(
        _ what: String, onThreadPool: Bool = false, _ body: @escaping @Sendable (Transaction) throws -> T
    ) async throws -> T {
        try await onWriter(what, onThreadPool: onThreadPool) { connection in
            let tx = Transaction(connection: connection)
            try tx.query("BEGIN IMMEDIATE")
            do {
                let result = try body(tx)
                try tx.query("COMMIT")
                return result
            } catch {
                _ = try? tx.query("ROLLBACK")
                throw error
            }
        }
    }

    /// One INSERT, UPDATE or DELETE on the writer, without `BEGIN … COMMIT`: SQLite runs a lone statement in its own
    /// implicit transaction, just as atomic (sqlite.org/lang_transaction.html).
    func write(_ what: String, _ sql: String, _ binds: [SQLiteData]) async throws {
        _ = try await writeReturning(what, sql, binds)
    }

    /// `write` for a statement with a `RETURNING` clause: the rows it changed.
    func writeReturning(_ what: String, _ sql: String, _ binds: [SQLiteData]) async throws -> [SQLiteRow] {
        try await onWriter(what) { try $0.query(sql, binds) }
    }

    /// Runs `body` with the writer connection; SQLite errors become `StoreError`s naming `what`.
    private func onWriter<T: Sendable>(
        _ what: String, onThreadPool: Bool = false, _ body: @escaping @Sendable (SQLiteConnection) throws -> T
    ) async throws -> T {
        guard !isClosed.withLockedValue({ $0 }) else { throw StoreError.closed }
        trips.withLockedValue { $0 += 1 }
        let walRestartFrames = self.walRestartFrames
        do {
            let (result, restartsLog) = try await writer.run(onThreadPool: onThreadPool) { connection in
                (try body(connection), WALCheckpointer.claimRestart(connection, limit: walRestartFrames))
            }
            if restartsLog { await checkpointer.restart(writer, limit: walRestartFrames) }
            return result
        } catch let error as SQLiteError {
            throw Self.storeError(error, what: what)
        }
    }

    /// One read statement on a read connection (a consistent snapshot in WAL mode).
    func read(_ sql: String, _ binds: [SQLiteData] = []) async throws -> [SQLiteRow] {
        guard !isClosed.withLockedValue({ $0 }) else { throw StoreError.closed }
        trips.withLockedValue { $0 += 1 }
        return try await readers.run { try $0.query(sql, binds) }
    }

    static func storeError(_ error: SQLiteError, what: String) -> any Error {
        switch error.code {
        case SQLiteError.foreignKeyFailed: StoreError.missingReference(what: "the grant of \(what)")
        case SQLiteError.primaryKeyFailed, SQLiteError.uniqueFailed: StoreError.duplicate(what: what)
        default: error
        }
    }
}
