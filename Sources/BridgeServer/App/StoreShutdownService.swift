import BridgeStore
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Closes the store once graceful shutdown reaches it, i.e. after the HTTP server has drained.
struct StoreShutdownService: Service {
    let store: any Store
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        do {
            try await store.close()
            logger.info("store closed")
        } catch {
            logger.error("store did not close cleanly", metadata: ["error": "\(error)"])
        }
    }
}

// MARK: Local users
