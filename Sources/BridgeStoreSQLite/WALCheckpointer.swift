import Foundation

/// Keeps the write-ahead log short, off the write path.
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
/// sqlite.org/walformat.html#shm) grew with it, in every connection's resident memory. So once the log is past
/// `restartFrames`, a RESTART checkpoint runs on the writer's own connection: queued between two transactions it needs
/// no write lock it could lose to the writer, it waits only for the reads already running (short single statements),
/// and the writer's next transaction starts the log from the beginning.
final class WALCheckpointer: Sendable {
    /// 16 MiB of 4 KiB pages: under two seconds of the mixed load benchmark's writes (about 2,500 pages a second),
    /// and what the WAL index's first 32 KiB block maps.
    static let restartFrames = 4_096
    /// How long the restart waits for running reads before it gives up until the next tick; the writer's queue waits
    /// that long at most (its own busy timeout, for other processes' locks, is 5 s).
    static let restartWaitMilliseconds = 50

    private let loop: Task<Void, Never>
    private let checkpoints: SQLiteWorker

    init(checkpoints: SQLiteWorker, writer: SQLiteWorker, interval: Duration, restartFrames: Int = restartFrames) {
        self.checkpoints = checkpoints
        loop = Task {
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                // A failed checkpoint is retried at the next tick; the log is still durable meanwhile.
                let frames = try? await checkpoints.run { connection in
                    try connection.query("PRAGMA wal_checkpoint(PASSIVE)").first?.column("log")?.integer
                }
                guard let frames = frames ?? nil, frames > restartFrames else { continue }
                _ = try? await writer.run { connection in
                    try connection.query("PRAGMA busy_timeout = \(Self.restartWaitMilliseconds)")
                    defer { _ = try? connection.query("PRAGMA busy_timeout = \(SQLiteStore.busyTimeoutMilliseconds)") }
                    try connection.query("PRAGMA wal_checkpoint(RESTART)")
                }
            }
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
