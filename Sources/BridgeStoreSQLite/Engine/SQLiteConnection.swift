import CSQLite

/// One SQLite connection and its prepared statements, on SQLite's C API. Not thread-safe by design: a connection
/// belongs to one `SQLiteSerialConnection` or `SQLiteWorker`, which lets one thread at a time touch it, so it is opened
/// without SQLite's own mutexes (`SQLITE_OPEN_NOMUTEX`). Statements are prepared once per SQL text and reused (sqlite.org/c3ref/prepare.html,
/// `SQLITE_PREPARE_PERSISTENT`), which is what sqlite-nio did not do: re-parsing (`yy_reduce`) showed in profiles.
final class SQLiteConnection {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    /// Batch statements vary with their row count; past this many texts the cache starts again.
    static let maxCachedStatements = 512

    init(path: String) throws {
        var database: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let result = sqlite3_open_v2(path, &database, flags, nil)
        guard result == SQLITE_OK, let database else {
            let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(database)
            throw SQLiteError(code: result, message: "cannot open \(path): \(message)")
        }
        sqlite3_extended_result_codes(database, 1)
        handle = database
    }

    deinit { close() }

    /// Pages in the write-ahead log after this connection's latest commit, once `countWALPages` was called.
    private(set) var walPages = 0
    /// After a restart of the log that could not finish, the length at which the next one is tried.
    var nextWALRestart = 0
    /// A RESTART checkpoint is waiting for this connection's next turn (`WALCheckpointer.claimRestart`).
    var isWALRestartQueued = false

    /// Keeps `walPages` current: SQLite reports the log's length after every commit (sqlite.org/c3ref/wal_hook.html).
    /// This replaces SQLite's own automatic checkpoint, which uses the same hook.
    func countWALPages() {
        sqlite3_wal_hook(
            handle,
            { context, _, _, pages in
                if let context { Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue().walPages = Int(pages) }
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The log starts over at the next write (a RESTART checkpoint finished).
    func walRestarted() {
        walPages = 0
        nextWALRestart = 0
    }

    /// Finalizes the statements and closes the database; later calls throw.
    func close() {
        if let handle { sqlite3_wal_hook(handle, nil, nil) }
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs one statement with `binds` (`?` or `?N` parameters, in order) and returns every row it produced.
    @discardableResult
    func query(_ sql: String, _ binds: [SQLiteData] = []) throws -> [SQLiteRow] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in binds.enumerated() {
            let result = bind(value, at: Int32(index + 1), in: statement)
            guard result == SQLITE_OK else { throw error(result) }
        }
        var rows: [SQLiteRow] = []
        var names: [String] = []
        while true {
            let result = sqlite3_step(statement)
            if result == SQLITE_DONE { break }
            guard result == SQLITE_ROW else { throw error(result) }
            let count = sqlite3_column_count(statement)
            if names.isEmpty { names = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) } }
            rows.append(SQLiteRow(names: names, values: (0..<count).map { column($0, of: statement) }))
        }
        return rows
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "the connection is closed") }
        if statements.count >= Self.maxCachedStatements {
            for statement in statements.values { sqlite3_finalize(statement) }
            statements = [:]
        }
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else { throw error(result) }
        statements[sql] = statement
        return statement
    }

    private func bind(_ value: SQLiteData, at index: Int32, in statement: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let integer): sqlite3_bind_int64(statement, index, sqlite3_int64(integer))
        case .float(let double): sqlite3_bind_double(statement, index, double)
        case .text(let text): sqlite3_bind_text(statement, index, text, -1, csqlite_transient())
        case .blob(let bytes):
            bytes.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), csqlite_transient()) }
        case .null: sqlite3_bind_null(statement, index)
        }
    }

    private func column(_ index: Int32, of statement: OpaquePointer) -> SQLiteData {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: .integer(Int(sqlite3_column_int64(statement, index)))
        case SQLITE_FLOAT: .float(sqlite3_column_double(statement, index))
        case SQLITE_TEXT: .text(String(cString: sqlite3_column_text(statement, index)))
        case SQLITE_BLOB:
            .blob(Array(UnsafeRawBufferPointer(
                start: sqlite3_column_blob(statement, index), count: Int(sqlite3_column_bytes(statement, index)))))
        default: .null
        }
    }

    private func error(_ result: Int32) -> SQLiteError {
        SQLiteError(code: result, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed")
    }
}

/// A connection handed between threads by the one type that owns it (`SQLiteSerialConnection`, `SQLiteWorker`), which
/// lets one thread at a time touch it; `SQLiteConnection` itself is not `Sendable`.
final class ConfinedConnection: @unchecked Sendable {
    let connection: SQLiteConnection
    init(_ connection: SQLiteConnection) { self.connection = connection }
}
