import BridgeStore
import Foundation
import NIOConcurrencyHelpers
import SQLiteNIO

/// The embedded default `Store`: one SQLite file in WAL mode (readers never wait for the writer), migrations applied
/// on open. Every protocol call is atomic: writes run in `BEGIN IMMEDIATE … COMMIT` on the writer connection, under
/// a lock, so they stay atomic when several processes share the file (`signin-bridge token issue` while `serve` runs).
///
/// Why sqlite-nio rather than GRDB or SQLKit: measured on this project's machine (16 concurrent tasks, WAL,
/// synchronous=NORMAL for both), sqlite-nio did 2–4× GRDB's inserts and atomic `UPDATE … RETURNING` redemptions and
/// about 10× its point reads through the async API; it bundles SQLite 3.54 (no system library, same on every host)
/// and runs on the NIO thread pool the server already has. SQLKit would only add a query builder; the store's few
/// single-use statements are written by hand for each database and kept honest by the shared contract tests.
public final class SQLiteStore: Store {
    /// How much a commit waits for the disk. `normal` (the default) survives a crash of the process and loses at most
    /// the last transactions on power loss (sqlite.org/wal.html §performance); `full` syncs every commit.
    public enum Durability: String, Sendable, CaseIterable {
        case normal, full
    }

    let writer: SQLiteConnection
    let reader: SQLiteConnection
    let checkpointer: WALCheckpointer
    let writeLock = AsyncSerialLock()
    let codeConsumptions = WriteBatcher<CodeConsumption, (AuthorizationCodeRecord, GrantRecord)?>(maxBatch: maxBatch)
    let tokenResponses = WriteBatcher<TokenResponseRecords, Void>(maxBatch: maxBatch)
    let wopiAccessTokens = WriteBatcher<WopiAccessTokenRecord, Void>(maxBatch: maxBatch)
    let bootstraps = WriteBatcher<BootstrapAttempt, BootstrapStatus>(maxBatch: maxBatch / 2)
    private let isClosed = NIOLockedValueBox(false)
    // A lock rather than Synchronization's Atomic, which needs macOS 15 and the package supports macOS 14.
    private let changes = NIOLockedValueBox<UInt64>(0)

    public var changeCounter: UInt64 { changes.withLockedValue { $0 } }

    private let trips = NIOLockedValueBox<UInt64>(0)

    /// Transactions and lone statements (reads or writes) run for callers; a group-committed batch counts once.
    public var roundTrips: UInt64 { trips.withLockedValue { $0 } }

    /// Called after the commit of a change that `changeCounter` counts (never before: a reader that saw the old
    /// counter must also have read the old data, so its answer is dropped).
    func noteChange() {
        changes.withLockedValue { $0 += 1 }
    }

    private init(writer: SQLiteConnection, reader: SQLiteConnection, checkpointer: WALCheckpointer) {
        self.writer = writer
        self.reader = reader
        self.checkpointer = checkpointer
    }

    /// Opens (creating folders and file if needed) the database at `path` and applies pending migrations.
    public static func open(path: String, durability: Durability = .normal) async throws -> SQLiteStore {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let writer = try await SQLiteConnection.open(storage: .file(path: path))
        let reader: SQLiteConnection
        do {
            // Replaces SQLiteNIO's retry-at-once busy handler with a sleeping one: another process may hold the lock.
            _ = try await writer.query("PRAGMA busy_timeout = 5000")
            _ = try await writer.query("PRAGMA journal_mode = WAL")
            _ = try await writer.query("PRAGMA synchronous = \(durability == .full ? "FULL" : "NORMAL")")
            _ = try await writer.query("PRAGMA foreign_keys = ON")
            // Checkpoints run on their own connection (WALCheckpointer), never inside a commit.
            _ = try await writer.query("PRAGMA wal_autocheckpoint = 0")
            reader = try await SQLiteConnection.open(storage: .file(path: path))
        } catch {
            try? await writer.close()
            throw error
        }
        let checkpoints: SQLiteConnection
        do {
            checkpoints = try await SQLiteConnection.open(storage: .file(path: path))
            _ = try await checkpoints.query("PRAGMA busy_timeout = 5000")
        } catch {
            try? await reader.close()
            try? await writer.close()
            throw error
        }
        let store = SQLiteStore(
            writer: writer, reader: reader,
            checkpointer: WALCheckpointer(connection: checkpoints, interval: .milliseconds(250)))
        do {
            _ = try await reader.query("PRAGMA busy_timeout = 5000")
            _ = try await reader.query("PRAGMA query_only = ON")
            try await store.migrate()
        } catch {
            try? await store.close()
            throw error
        }
        return store
    }

    private func migrate() async throws {
        try await transaction("migration") { tx in
            let version = try await tx.query("PRAGMA user_version").first?.column("user_version")?.integer ?? 0
            for (index, statements) in SQLiteSchema.migrations.enumerated() where index >= version {
                for statement in statements { _ = try await tx.query(statement) }
                _ = try await tx.query("PRAGMA user_version = \(index + 1)")
            }
        }
    }

    public func checkHealth() async throws {
        _ = try await read("SELECT count(*) AS n FROM grants WHERE 0")
    }

    public func close() async throws {
        guard isClosed.withLockedValue({ closed in defer { closed = true }; return !closed }) else { return }
        // Waits for a running transaction to finish before the connections go.
        await writeLock.acquire()
        // In a fresh task: closing must happen even when the caller is being cancelled (graceful shutdown).
        let (reader, writer, checkpointer) = (self.reader, self.writer, self.checkpointer)
        let closing = Task {
            var failure: (any Error)?
            do { try await checkpointer.stop() } catch { failure = error }
            do { try await reader.close() } catch { failure = failure ?? error }
            do { try await writer.close() } catch { failure = failure ?? error }
            if let failure { throw failure }
        }
        let result = await closing.result
        await writeLock.release()
        try result.get()
    }

    // MARK: plumbing

    /// The writer connection inside one transaction; statements may only be run through it while the lock is held.
    struct Transaction {
        let connection: SQLiteConnection

        @discardableResult
        func query(_ sql: String, _ binds: [SQLiteData] = []) async throws -> [SQLiteRow] {
            try await connection.query(sql, binds)
        }

        /// Rows changed by the last INSERT, UPDATE or DELETE of this transaction.
        func changes() async throws -> Int {
            Int(try await connection.query("SELECT changes() AS n").first?.column("n")?.integer ?? 0)
        }
    }

    /// Runs `body` in `BEGIN IMMEDIATE … COMMIT` (taking the write lock up front, so no deadlock on upgrade), rolling
    /// back on any error. Constraint violations become `StoreError`s naming `what`.
    @discardableResult
    func transaction<T>(_ what: String, _ body: (Transaction) async throws -> T) async throws -> T {
        try await underWriteLock(what) {
            let tx = Transaction(connection: writer)
            try await tx.query("BEGIN IMMEDIATE")
            do {
                let result = try await body(tx)
                try await tx.query("COMMIT")
                return result
            } catch {
                _ = try? await tx.query("ROLLBACK")
                throw error
            }
        }
    }

    /// One INSERT, UPDATE or DELETE on the writer connection, under the lock but without `BEGIN … COMMIT`: SQLite
    /// runs a lone statement in its own implicit transaction, just as atomic (sqlite.org/lang_transaction.html), and
    /// this saves two thread-pool round trips per write. The lock keeps it out of another task's open transaction.
    func write(_ what: String, _ sql: String, _ binds: [SQLiteData]) async throws {
        _ = try await writeReturning(what, sql, binds)
    }

    /// `write` for a statement with a `RETURNING` clause: the rows it changed.
    func writeReturning(_ what: String, _ sql: String, _ binds: [SQLiteData]) async throws -> [SQLiteRow] {
        try await underWriteLock(what) { try await writer.query(sql, binds) }
    }

    /// Runs `body` holding the write lock, released on every path; SQLite errors become `StoreError`s naming `what`.
    private func underWriteLock<T>(_ what: String, _ body: () async throws -> T) async throws -> T {
        guard !isClosed.withLockedValue({ $0 }) else { throw StoreError.closed }
        trips.withLockedValue { $0 += 1 }
        await writeLock.acquire()
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await body())
        } catch let error as SQLiteError {
            outcome = .failure(Self.storeError(error, what: what))
        } catch {
            outcome = .failure(error)
        }
        await writeLock.release()
        return try outcome.get()
    }

    /// One read statement on the reader connection (a consistent snapshot in WAL mode).
    func read(_ sql: String, _ binds: [SQLiteData] = []) async throws -> [SQLiteRow] {
        guard !isClosed.withLockedValue({ $0 }) else { throw StoreError.closed }
        trips.withLockedValue { $0 += 1 }
        return try await reader.query(sql, binds)
    }

    static func storeError(_ error: SQLiteError, what: String) -> any Error {
        switch error.reason {
        case .constraintForeignKeyFailed: StoreError.missingReference(what: "the grant of \(what)")
        case .constraintPrimaryKeyFailed, .constraintUniqueFailed: StoreError.duplicate(what: what)
        default: error
        }
    }
}

// MARK: Users

extension SQLiteStore {
    public func saveUser(_ user: UserRecord) async throws {
        defer { noteChange() }
        return try await transaction("user \(user.id) or sign-in name \(user.signInName)") { tx in
            try await tx.query(
                """
                INSERT INTO users (id, sign_in_name, friendly_name, password_hash) VALUES (?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET sign_in_name = excluded.sign_in_name,
                    friendly_name = excluded.friendly_name, password_hash = excluded.password_hash
                """,
                [.text(user.id), .text(user.signInName), .optionalText(user.friendlyName), .optionalText(user.passwordHash)])
        }
    }

    public func user(id: String) async throws -> UserRecord? {
        try await read("SELECT * FROM users WHERE id = ?", [.text(id)]).first.map { try Self.user($0) }
    }

    public func user(signInName: String) async throws -> UserRecord? {
        try await read("SELECT * FROM users WHERE sign_in_name = ?", [.text(signInName)]).first.map { try Self.user($0) }
    }

    /// Reads the user columns of `row`, prefixed `u_` when the row is a join.
    static func user(_ row: SQLiteRow, prefix: String = "") throws -> UserRecord {
        UserRecord(
            id: try row.text(prefix + "id"), signInName: try row.text(prefix + "sign_in_name"),
            friendlyName: try row.optionalText(prefix + "friendly_name"),
            passwordHash: try row.optionalText(prefix + "password_hash"))
    }
}

// MARK: Grants

extension SQLiteStore {
    public func createGrant(_ grant: GrantRecord) async throws {
        try await transaction("grant \(grant.id)") { tx in try await Self.insertGrant(grant, in: tx) }
    }

    static func insertGrant(_ grant: GrantRecord, in tx: Transaction) async throws {
        try await tx.query(
            """
            INSERT INTO grants (id, user_id, client_id, scope, session_context, created_at, revoked_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(grant.id.rawValue), .text(grant.userID), .text(grant.clientID), .text(grant.scope),
                .optionalText(grant.sessionContext), .millis(grant.createdAt), .millis(grant.revokedAt),
            ])
    }

    public func grant(id: GrantID) async throws -> GrantRecord? {
        try await read("SELECT * FROM grants WHERE id = ?", [.text(id.rawValue)]).first.map { try Self.grant($0) }
    }

    public func recordSessionContext(_ sessionContext: String, grant: GrantID) async throws -> Bool {
        defer { noteChange() }
        return try await transaction("session context") { tx in
            try await tx.query(
                "UPDATE grants SET session_context = ? WHERE id = ?", [.text(sessionContext), .text(grant.rawValue)])
            return try await tx.changes() == 1
        }
    }

    public func revokeGrant(_ id: GrantID, at now: Date) async throws -> Bool {
        defer { noteChange() }
        return try await transaction("grant revocation") { tx in
            try await Self.revokeGrant(id, at: now, in: tx)
            return try await !tx.query("SELECT 1 FROM grants WHERE id = ?", [.text(id.rawValue)]).isEmpty
        }
    }

    public func revokeGrants(userID: String, at now: Date) async throws -> Int {
        defer { noteChange() }
        return try await transaction("grant revocation") { tx in
            try await tx.query(
                "UPDATE grants SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL", [.millis(now), .text(userID)])
            return try await tx.changes()
        }
    }

    /// Keeps the first revocation time when called again.
    static func revokeGrant(_ id: GrantID, at now: Date, in tx: Transaction) async throws {
        try await tx.query(
            "UPDATE grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", [.millis(now), .text(id.rawValue)])
    }

    /// Reads the grant columns of `row`, prefixed `g_` when the row is a join.
    static func grant(_ row: SQLiteRow, prefix: String = "") throws -> GrantRecord {
        GrantRecord(
            id: GrantID(try row.text(prefix + "id")), userID: try row.text(prefix + "user_id"),
            clientID: try row.text(prefix + "client_id"), scope: try row.text(prefix + "scope"),
            sessionContext: try row.optionalText(prefix + "session_context"),
            createdAt: try row.date(prefix + "created_at"), revokedAt: try row.optionalDate(prefix + "revoked_at"))
    }
}

// MARK: Sessions and housekeeping

extension SQLiteStore {
    public func createSession(_ session: SessionRecord) async throws {
        try await transaction("session") { tx in try await Self.insertSession(session, in: tx) }
    }

    static func insertSession(_ session: SessionRecord, in tx: Transaction) async throws {
        try await tx.query(
            "INSERT INTO sessions (digest, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
            [.text(session.digest.hex), .text(session.userID), .millis(session.createdAt), .millis(session.expiresAt)])
    }

    public func activeSession(_ digest: TokenDigest, at now: Date) async throws -> SessionRecord? {
        try await read(
            "SELECT * FROM sessions WHERE digest = ? AND ended_at IS NULL AND expires_at > ?",
            [.text(digest.hex), .millis(now)]
        ).first.map { row in
            SessionRecord(
                digest: digest, userID: try row.text("user_id"), createdAt: try row.date("created_at"),
                expiresAt: try row.date("expires_at"))
        }
    }

    public func endSessions(userID: String, at now: Date) async throws -> Int {
        try await transaction("session end") { tx in
            try await tx.query(
                "UPDATE sessions SET ended_at = ? WHERE user_id = ? AND ended_at IS NULL AND expires_at > ?",
                [.millis(now), .text(userID), .millis(now)])
            return try await tx.changes()
        }
    }

    public func purgeExpired(before cutoff: Date) async throws -> Int {
        try await transaction("purge") { tx in
            var count = 0
            for table in ["access_tokens", "wopi_access_tokens", "authorization_codes", "sessions", "pending_authorizations"] {
                try await tx.query("DELETE FROM \(table) WHERE expires_at < ?", [.millis(cutoff)])
                count += try await tx.changes()
            }
            try await tx.query("DELETE FROM sign_in_failures WHERE failed_at < ?", [.millis(cutoff)])
            count += try await tx.changes()
            try await tx.query(
                "DELETE FROM refresh_tokens WHERE expires_at IS NOT NULL AND expires_at < ?", [.millis(cutoff)])
            return count + (try await tx.changes())
        }
    }
}
