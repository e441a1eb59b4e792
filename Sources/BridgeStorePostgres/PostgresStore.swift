import BridgeStore
import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// The `Store` for several server instances sharing one PostgreSQL database (postgres-nio's `PostgresClient`, a
/// bounded pool). Every protocol call is one SQL statement, so one round trip and one implicit transaction:
/// single-use credentials are consumed with `UPDATE … WHERE redeemed_at IS NULL RETURNING` or `DELETE … RETURNING`
/// and everything a call reads or writes besides rides along in data-modifying CTEs
/// (postgresql.org/docs/15/queries-with.html §7.8.4).
/// Concurrent code flow steps share one statement over arrays (`PostgresStepBatches`).
///
/// Changes that make a kept answer wrong (revocations, replays, users and session contexts) also send
/// `pg_notify('signin_bridge_changes')` in the same statement; every instance `LISTEN`s on a connection of its own
/// and moves `changeCounter` on each notification, so a revocation at one instance reaches the others' caches.
public final class PostgresStore: Store {
    /// The `LISTEN`/`NOTIFY` channel of committed changes (postgresql.org/docs/15/sql-notify.html).
    static let changesChannel = "signin_bridge_changes"

    let client: PostgresClient
    let configuration: PostgresStoreConfiguration
    let logger: Logger
    private let clientRun: Task<Void, Never>
    private let listener: Task<Void, Never>
    private let counters = NIOLockedValueBox(Counters())
    /// Concurrent code flow steps grouped into one statement each (`PostgresStepBatches`).
    let batches = PostgresStepBatches()

    private struct Counters {
        var changes: UInt64 = 0
        var roundTrips: UInt64 = 0
        var closed = false
    }

    public var changeCounter: UInt64 { counters.withLockedValue { $0.changes } }

    /// Statements sent to the database by this store object: one per protocol call, except that concurrent code flow
    /// steps share one (`PostgresStepBatches`; a step its batch does not answer then sends its own).
    public var roundTrips: UInt64 { counters.withLockedValue { $0.roundTrips } }

    /// Moves `changeCounter`: after a local change has committed, and for every notification of any instance's.
    func noteChange() {
        counters.withLockedValue { $0.changes &+= 1 }
    }

    private init(
        configuration: PostgresStoreConfiguration, logger: Logger, listening: @escaping @Sendable () -> Void
    ) throws {
        self.configuration = configuration
        self.logger = logger
        let connection = try configuration.connectionConfiguration()
        let client = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: logger)
        self.client = client
        self.clientRun = Task { await client.run() }
        let counters = self.counters
        self.listener = Task {
            await ChangeListener.run(
                connection: connection, channel: Self.changesChannel, logger: logger, listening: listening,
                change: { counters.withLockedValue { $0.changes &+= 1 } })
        }
    }

    /// Connects, applies pending migrations and starts listening for other instances' changes. Fails with
    /// `StoreError.unavailable` when the database cannot be reached within `configuration.connectTimeout`.
    public static func open(
        _ configuration: PostgresStoreConfiguration, logger: Logger = Logger(label: "signin-bridge.postgres")
    ) async throws -> PostgresStore {
        let (listening, started) = AsyncStream<Void>.makeStream()
        let store = try PostgresStore(configuration: configuration, logger: logger, listening: { started.yield() })
        do {
            try await store.migrate()
            try await store.waitUntilListening(listening)
        } catch {
            try? await store.close()
            throw error
        }
        return store
    }

    /// Applies pending migrations without keeping a store open (`signin-bridge migrate`). Returns how many ran.
    @discardableResult
    public static func migrate(
        _ configuration: PostgresStoreConfiguration, logger: Logger = Logger(label: "signin-bridge.postgres")
    ) async throws -> Int {
        let store = try PostgresStore(configuration: configuration, logger: logger, listening: {})
        do {
            let applied = try await store.migrate()
            try await store.close()
            return applied
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// One transaction under the migration lock: instances starting together wait for the first one's migrations
    /// and then find nothing left to do.
    @discardableResult
    func migrate() async throws -> Int {
        let logger = self.logger
        return try await withConnection(Subject("migration")) { connection in
            try await connection.withTransaction(logger: logger) { tx in
                try await tx.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.migrationLock))", logger: logger)
                try await tx.query(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at bigint NOT NULL)",
                    logger: logger)
                let row = try await tx.query("SELECT max(version) AS version FROM schema_migrations", logger: logger)
                    .collect().first?.makeRandomAccess()
                let current = Int(try row?["version"].decode(Int32?.self) ?? 0)
                let known = PostgresSchema.migrations.count
                guard current <= known else { throw SchemaTooNew(found: current, known: known) }
                for (index, statements) in PostgresSchema.migrations.enumerated() where index >= current {
                    for statement in statements { try await tx.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                    try await tx.query(
                        """
                        INSERT INTO schema_migrations (version, applied_at)
                        VALUES (\(Int32(index + 1)), \(Milliseconds.from(Date())))
                        """,
                        logger: logger)
                }
                return known - current
            }
        }
    }

    /// The database was migrated by a newer build than this one; running on it could corrupt what that build wrote.
    public struct SchemaTooNew: Error, CustomStringConvertible {
        public var found: Int
        public var known: Int
        public var description: String {
            "the database schema is at version \(found), this build knows only up to \(known): run the newer build"
        }
    }

    private func waitUntilListening(_ listening: AsyncStream<Void>) async throws {
        let timeout = configuration.connectTimeout
        let started = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in listening { return true }
                return false
            }
            group.addTask {
                _ = await Deadline.sleep(for: timeout)
                return false
            }
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
        guard started else { throw Self.unavailable("LISTEN \(Self.changesChannel) did not start within \(timeout)") }
    }

    public func checkHealth() async throws {
        try await rows(Subject("health check"), "SELECT 1 AS ok")
    }

    public func close() async throws {
        guard counters.withLockedValue({ c in defer { c.closed = true }; return !c.closed }) else { return }
        listener.cancel()
        clientRun.cancel()
        await listener.value
        await clientRun.value
    }

    // MARK: plumbing

    /// Names what a statement writes, for `StoreError`s: `what` by default, `tables` for a statement that writes
    /// several tables (the table a constraint belongs to picks the name).
    struct Subject: Sendable {
        var what: String
        var tables: [String: String] = [:]

        init(_ what: String, tables: [String: String] = [:]) {
            self.what = what
            self.tables = tables
        }

        func name(table: String?) -> String { table.flatMap { tables[$0] } ?? what }
    }

    /// Counts a call that reached the database outside `rows` (a transaction of several statements).
    func countRoundTrip() { counters.withLockedValue { $0.roundTrips &+= 1 } }

    /// Sends one statement and returns its rows: one round trip.
    @discardableResult
    func rows(_ subject: Subject, _ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        counters.withLockedValue { $0.roundTrips &+= 1 }
        let logger = self.logger
        return try await withConnection(subject) { connection in
            try await connection.query(query, logger: logger).collect().map { $0.makeRandomAccess() }
        }
    }

    /// Sends one prepared statement and returns its rows: one round trip once the connection has prepared it.
    @discardableResult
    func rows<Query: PreparedQuery>(_ subject: Subject, _ query: Query) async throws -> [PostgresRandomAccessRow] {
        counters.withLockedValue { $0.roundTrips &+= 1 }
        let logger = self.logger
        return try await withConnection(subject) { connection in
            var rows: [PostgresRandomAccessRow] = []
            for try await row in try await connection.execute(query, logger: logger) { rows.append(row) }
            return rows
        }
    }

    /// Runs `body` on a pooled connection. Waiting for the connection is bounded by `connectTimeout`: when the
    /// database is down the pool keeps retrying in the background (postgres-nio opens its circuit breaker only after
    /// a minute), so the call gives up by itself and says the store is unavailable instead of hanging.
    func withConnection<T: Sendable>(
        _ subject: Subject, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        guard !counters.withLockedValue({ $0.closed }) else { throw StoreError.closed }
        let (client, timeout) = (self.client, configuration.connectTimeout)
        let leased = NIOLockedValueBox(false)
        // The whole call is bounded too: a statement on a connection whose server went away without closing it
        // (a database stopped mid-query) would otherwise hold the request until TCP gives up.
        let whole = timeout * 3 / 2
        do {
            // Waiting for the lease is bounded by `timeout`, the whole call by `whole`.
            return try await Deadline.race(timeouts: [timeout, whole]) { deadline in
                let isLeased = leased.withLockedValue { $0 }
                return switch (deadline, isLeased) {
                case (0, false): Self.unavailable("no database connection within \(timeout)")
                case (0, true): nil
                default: Self.unavailable("no answer from the database within \(whole)")
                }
            } _: {
                try await client.withConnection { connection in
                    leased.withLockedValue { $0 = true }
                    return try await body(connection)
                }
            }
        } catch {
            throw Self.storeError(error, subject: subject, leased: leased.withLockedValue { $0 })
        }
    }

    /// Constraint violations become `StoreError`s naming the record; lost connections and a pool that could not
    /// connect become `unavailable` (SQLSTATE classes 08 and 57P, postgresql.org/docs/15/errcodes-appendix.html).
    static func storeError(_ error: any Error, subject: Subject, leased: Bool) -> any Error {
        if let transaction = error as? PostgresTransactionError,
            let cause = transaction.beginError ?? transaction.closureError ?? transaction.commitError
        {
            return storeError(cause, subject: subject, leased: leased)
        }
        if error is StoreError || error is CancellationError || error is SchemaTooNew { return error }
        guard let error = error as? PSQLError else { return leased ? error : unavailable("\(error)") }
        if error.code == .server, let state = error.serverInfo?[.sqlState] {
            let table = error.serverInfo?[.tableName]
            switch state {
            case "23505": return StoreError.duplicate(what: subject.name(table: table))
            case "23503": return StoreError.missingReference(what: "the grant of \(subject.name(table: table))")
            case _ where state.hasPrefix("08") || state.hasPrefix("57P"): return unavailable("server: \(state)")
            default: return error
            }
        }
        switch error.code {
        case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection, .poolClosed:
            return unavailable("\(error.code)")
        default:
            return leased ? error : unavailable("\(error.code)")
        }
    }

    static func unavailable(_ reason: String) -> any Error { StoreError.unavailable(reason: reason) }
}
