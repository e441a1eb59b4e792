import BridgeStore
import Foundation
import Logging
import ServiceLifecycle

/// Deletes expired tokens, codes, sessions and sign-in failures every `interval` (`store.purgeIntervalSeconds`),
/// so that the database does not grow without bound: every bootstrap call records a WOPI access token. Consumed
/// codes and rotated refresh tokens stay until they expire, so replays are still detected (`Store.purgeExpired`).
/// A failed purge is logged and tried again at the next interval; it never stops the server.
struct ExpiredRecordsPurge: Service {
    let store: any Store
    let interval: Duration
    let now: @Sendable () -> Date
    let logger: Logger

    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return  // cancelled or shutting down
            }
            do {
                let removed = try await store.purgeExpired(before: now())
                logger.debug("expired records purged", metadata: ["count": "\(removed)"])
            } catch {
                logger.warning("purging expired records failed", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            }
        }
    }
}
