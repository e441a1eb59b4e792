import BridgeHTTP
import Foundation

/// One key as `signin-bridge keys list` shows it.
public struct ListedSigningKey: Sendable, Equatable {
    public let alg: String
    public let kid: String
    public let status: SigningKeyStatus
    public let createdAt: String
    /// What happens next to the key: when it may sign, or when it may be retired.
    public let note: String
}

extension SigningKeyFile {
    /// `signin-bridge keys rotate`: see `SigningKeyRotation.rotate`. Returns one line per change.
    public static func rotate(
        path: String, algorithms: [String], timing: SigningKeyTiming, now: Date = Date(), force: Bool = false
    ) throws -> [String] {
        try change(path: path, now: now) { contents in
            try SigningKeyRotation.rotate(&contents, algorithms: algorithms, timing: timing, now: now, force: force)
        }
    }

    /// `signin-bridge keys retire`: see `SigningKeyRotation.retire`. Returns one line per key removed.
    public static func retire(
        path: String, algorithms: [String], timing: SigningKeyTiming, now: Date = Date(), force: Bool = false
    ) throws -> [String] {
        try change(path: path, now: now) { contents in
            try SigningKeyRotation.retire(&contents, algorithms: algorithms, timing: timing, now: now, force: force)
        }
    }

    /// The keys in the server's order (current, next, previous per algorithm) without changing the file.
    public static func list(path: String, timing: SigningKeyTiming, now: Date = Date()) throws(ConfigurationError)
        -> [ListedSigningKey]
    {
        guard FileManager.default.fileExists(atPath: path) else {
            throw problem("the key file \(path) does not exist yet: serve creates it at first start, keys rotate too")
        }
        var contents = try read(path: path)
        SigningKeyRotation.stampStatuses(&contents, now: now)
        return Contents.algorithms.flatMap { alg in
            contents.ordered(alg).map { entry in
                let status = SigningKeyStatus(rawValue: entry.status ?? "") ?? .previous
                let note: String
                switch status {
                case .current:
                    note = "signs"
                case .next:
                    let from = timing.promotable(createdAt: LogTimestamp.date(utcSeconds: entry.createdAt) ?? now)
                    note = "may sign from \(LogTimestamp.utcSeconds(from))"
                case .previous:
                    let since = entry.previousSince.flatMap(LogTimestamp.date(utcSeconds:)) ?? now
                    note = "may be retired from \(LogTimestamp.utcSeconds(timing.retirable(alg, previousSince: since)))"
                }
                return ListedSigningKey(alg: alg, kid: entry.kid, status: status, createdAt: entry.createdAt, note: note)
            }
        }
    }

    /// Reads the file (creating it first when absent), applies `step`, and writes the result, all under the file's
    /// lock, so that a rotation and an instance starting at the same moment see one order of events. Synchronous:
    /// the lock is held across no suspension point.
    /// The statuses a file without them implies are written even when the step refuses, so that the times a later
    /// step waits for are counted from the first change, not from whenever the file is next read.
    static func change(path: String, now: Date, _ step: (inout Contents) throws -> [String]) throws -> [String] {
        _ = try completedContents(path: path)
        let lock = try FileLock(path: path + ".lock")
        defer { lock.release() }
        let original = try read(path: path)
        var contents = original
        SigningKeyRotation.stampStatuses(&contents, now: now)
        let stamped = contents
        do {
            let changes = try step(&contents)
            try save(contents, to: path)
            return changes
        } catch {
            if stamped != original { try save(stamped, to: path) }
            throw error
        }
    }

    private static func save(_ contents: Contents, to path: String) throws(ConfigurationError) {
        do {
            try write(contents, to: path)
        } catch {
            throw problem("cannot write the key file \(path): \(error)")
        }
    }
}
