import Foundation
import Logging
import ServiceLifecycle

/// Rereads the signing key file when it changes, so a running server picks up `signin-bridge keys rotate|retire`
/// without a restart: every `interval` it compares the file's inode, size and modification time (the file is
/// replaced by rename, so a change always gives a new inode) and, on a change, loads the keys and swaps them into
/// the shared `SigningKeySet`. A file that cannot be read is logged and the keys in use are kept.
struct SigningKeyFileWatch: Service {
    /// Also the slack `SigningKeyTiming` adds to every wait: a demoted key may sign for this long.
    static let interval: TimeInterval = 5

    let path: String
    let keys: SigningKeySet
    let logger: Logger

    /// What tells one version of the file from another without reading it.
    struct Identity: Equatable {
        let inode: UInt64
        let size: UInt64
        let modified: Date

        init?(path: String) {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value,
                let size = (attributes[.size] as? NSNumber)?.uint64Value,
                let modified = attributes[.modificationDate] as? Date
            else { return nil }
            (self.inode, self.size, self.modified) = (inode, size, modified)
        }
    }

    func run() async throws {
        // Once at start: a rotation between loading the keys and starting this service is not missed.
        var seen = Identity(path: path)
        await reload()
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(Self.interval)) }
            } catch {
                return  // cancelled or shutting down
            }
            let now = Identity(path: path)
            guard now != seen else { continue }
            seen = now
            await reload()
        }
    }

    /// Loads the file and makes it the server's key set; kids are public (they are in the JWKS), keys are not logged.
    func reload() async {
        do {
            let loaded = try await SigningKeyFile.load(path: path)
            let before = keys.snapshot
            keys.replace(with: loaded)
            if before.keys.map(\.kid) != loaded.keys.map(\.kid) || before.rsaKeys.map(\.kid) != loaded.rsaKeys.map(\.kid) {
                logger.notice(
                    "signing keys reloaded",
                    metadata: ["es256": "\(loaded.keys.map(\.kid))", "rs256": "\(loaded.rsaKeys.map(\.kid))"])
            }
        } catch {
            logger.warning("signing keys not reloaded, the keys in use are kept", metadata: ["problem": "\(error)"])
        }
    }
}
