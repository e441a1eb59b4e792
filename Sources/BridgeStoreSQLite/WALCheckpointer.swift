import Foundation

/// Keeps the write-ahead log short, off the write path as far as it can.
///
/// By default SQLite checkpoints inside the commit that takes the log past 1,000 pages, which then waits for the
/// checkpoint's fsync with the write lock held: every request behind it waits too (token redemption at 16 clients:
/// p99 12 ms with it, 7 ms without). Here a connection of its own runs a PASSIVE checkpoint every `interval`, which
/// copies committed pages into the database file without blocking the writer or the readers (sqlite.org/wal.html#ckpt).
///
/// A PASSIVE checkpoint never rewinds the log, though: SQLite starts writing it from the beginning again only when a
/// write begins after everything was copied and no reader still uses it, and under steady load there is always a
/// reader ("checkpoint starvation", sqlite.org/wal.html#avoiding_excessively_large_wal_files). The log then grew to
/// 500 MB in three minutes of mixed traffic, and the WAL index mapped beside it (`-shm`, 32 KiB per 4,096 pages,
/// sqlite.org/walformat.html#shm) grew with it, in every connection's resident memory. So after the step that takes
/// the log past `restartFrames`, the writer connection itself runs a RESTART checkpoint, as the next holder of its
/// turn (`restart`): on that connection it needs no write lock it could lose, it copies only what the PASSIVE
/// checkpoints have not, it waits only for the reads already running (short single statements), and the next
/// transaction starts the log over. It syncs the disk, so it holds the turn on a pool thread, not an event loop.
final class WALCheckpointer: Sendable {
    /// 16 MiB of 4 KiB pages: under two seconds of the mixed load benchmark's writes (about 2,500 pages a second),
    /// and what the WAL index's first 32 KiB block maps.
    static let restartFrames = 4_096
    /// How long a restart waits for running reads before the writer goes on without it; after such a miss the next
    /// try comes a quarter of `restartFrames` later (the writer's own busy timeout, for other processes' locks, is
    /// 5 s).
    static let restartWaitMilliseconds = 50

    private let loop: Task<Void, Never>
    private let checkpoints: SQLiteWorker
    /// `restartWaitMilliseconds`, or what a test sets (one that must not depend on how fast a busy machine's reads end).
    let restartWait: Int

    init(checkpoints: SQLiteWorker, interval: Duration, restartWait: Int = restartWaitMilliseconds) {
        self.checkpoints = checkpoints
        self.restartWait = restartWait
        loop = Task {
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                // A failed checkpoint is retried at the next tick; the log is still durable meanwhile.
                _ = try? await checkpoints.run { try $0.query("PRAGMA wal_checkpoint(PASSIVE)") }
            }
        }
    }

    /// Called by the writer after each step, in its turn: true when the log is past its limit and no restart is
    /// queued yet, which queues one (the caller then calls `restart`).
    static func claimRestart(_ connection: SQLiteConnection, limit: Int) -> Bool {
        guard !connection.isWALRestartQueued, isLong(connection, limit: limit) else { return false }
        connection.isWALRestartQueued = true
        return true
    }

    /// Queues a RESTART checkpoint on `writer` (which must have called `countWALPages`) behind the steps already
    /// waiting for it. A PASSIVE checkpoint on the checkpoint connection goes first: it copies and syncs the log
    /// without stopping anyone, so the writer stops only for what was written since. Without it the restart synced
    /// the whole 16 MiB log while holding the writer, and every write waited for the disk (under the code flow
    /// benchmark, 861 waits in `fdatasync` in 4 s with the writer held; 281 with the passive checkpoint first).
    ///
    /// The step that took the log past its limit waits for this before it answers, so the restart is not one more
    /// task waiting for a thread among the requests whose writes it is meant to bound.
    func restart(_ writer: SQLiteSerialConnection, limit: Int) async {
        _ = try? await checkpoints.run { try $0.query("PRAGMA wal_checkpoint(PASSIVE)") }
        let wait = restartWait
        _ = try? await writer.run(onThreadPool: true) { connection in
            defer { connection.isWALRestartQueued = false }
            Self.restartIfLong(connection, limit: limit, wait: wait)
        }
    }

    /// Past the limit, or past the length set for the next try after a restart that could not finish.
    static func isLong(_ connection: SQLiteConnection, limit: Int) -> Bool {
        connection.walPages > max(limit, connection.nextWALRestart)
    }

    static func restartIfLong(_ connection: SQLiteConnection, limit: Int, wait: Int) {
        guard isLong(connection, limit: limit) else { return }
        var finished = false
        do {
            try connection.query("PRAGMA busy_timeout = \(wait)")
            defer { _ = try? connection.query("PRAGMA busy_timeout = \(SQLiteStore.busyTimeoutMilliseconds)") }
            // One row: busy is 1 when running reads kept it from finishing (sqlite.org/pragma.html#pragma_wal_checkpoint).
            finished = try connection.query("PRAGMA wal_checkpoint(RESTART)").first?.column("busy")?.integer == 0
        } catch {
            finished = false
        }
        if finished {
            connection.walRestarted()
        } else {
            connection.nextWALRestart = connection.walPages + limit / 4
        }
    }

    /// Stops the loop, waits for a checkpoint in progress, and closes the checkpoint connection (the writer is the
    /// store's to close).
    func stop() async throws {
        loop.cancel()
        await loop.value
        try await checkpoints.close()
    }
}
