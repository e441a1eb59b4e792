import BridgeStore
import Foundation
import Logging
import ServiceLifecycle

/// Deletes expired tokens, codes, sessions and sign-in failures every `interval` (`store.purgeIntervalSeconds`),
/// so that the database does not grow without bound: every bootstrap call records a WOPI access token. Consumed
/// codes and rotated refresh tokens stay until they expire, so replays are still detected (`Store.purgeExpired`).
/// A failed purge is logged and tried again at the next interval; it never stops the server.
///
/// Rows are purged one `keep` after they end: a sign-in failure's row ends when it is recorded (`failed_at`) but
/// counts against its account and address for `signIn.throttle.windowSeconds` after that, so purging at `now` would
/// reset the throttle at every interval. Other expired rows merely stay that much longer.
struct ExpiredRecordsPurge: Service {
    let store: any Store
    let interval: Duration
    /// `signIn.throttle.windowSeconds`.
    let keep: TimeInterval
    let now: @Sendable () -> Date
    let logger: Logger
    /// Rows of each kind per transaction. A single DELETE of a ten-minute backlog at full load (~400,000 codes and
    /// tokens) held the writer for its whole length and left SQLite's process heap 5.5 MiB larger for good.
    var batch = 1_000

    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return  // cancelled or shutting down
            }
            do {
                let removed = try await Self.purge(store, before: now().addingTimeInterval(-keep), batch: batch)
                logger.debug("expired records purged", metadata: ["count": "\(removed)"])
            } catch {
                logger.warning("purging expired records failed", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            }
        }
    }

    /// Everything that expired before `cutoff`, one batch per store call, so that requests' writes take turns
    /// with it; returns the total.
    static func purge(_ store: any Store, before cutoff: Date, batch: Int) async throws -> Int {
        var total = 0
        while true {
            let removed = try await store.purgeExpired(before: cutoff, limit: batch)
            total += removed
            // Below the batch size, no kind had more left (Store.purgeExpired).
            if removed < batch || Task.isCancelled { return total }
        }
    }
}
