import BridgeHTTP
import Foundation

/// Where a key is in its life (OpenID Connect Core §10.1.1: publish a new key before using it, keep the old one
/// published while tokens signed with it may still be verified).
public enum SigningKeyStatus: String, Sendable, CaseIterable {
    /// Published in the JWKS, not signing yet: relying parties learn it before they meet a token signed with it.
    case next
    /// Signs, and is published.
    case current
    /// No longer signs; published until every token it signed has expired.
    case previous

    /// The server's order: the signing key first.
    var rank: Int {
        switch self {
        case .current: 0
        case .next: 1
        case .previous: 2
        }
    }
}

/// A rotation step that would break tokens or relying parties; nothing was written. Each line names a key.
public struct SigningKeyRefusal: Error, Sendable, CustomStringConvertible {
    public let reasons: [String]
    public var description: String { reasons.joined(separator: "\n") }
}

/// The steps of a rotation on the key file's contents, whose statuses are written out (`stampStatuses`);
/// `SigningKeyFile.change` runs them under the file's lock.
enum SigningKeyRotation {
    typealias Contents = SigningKeyFile.Contents

    /// Per algorithm: without a next key, adds one (published, not signing); with one published long enough,
    /// promotes it to current and the current key to previous. `force` promotes at once (a compromised key).
    static func rotate(
        _ contents: inout Contents, algorithms: [String], timing: SigningKeyTiming, now: Date, force: Bool
    ) throws -> [String] {
        var changes: [String] = []
        var refusals: [String] = []
        for alg in algorithms {
            guard let nextIndex = contents.keys.firstIndex(where: { $0.alg == alg && $0.status == "next" }) else {
                let entry = try SigningKeyFile.newEntry(alg: alg, status: .next, at: now)
                contents.keys.append(entry)
                let from = LogTimestamp.utcSeconds(timing.promotable(createdAt: now))
                changes.append("\(alg): added next key \(entry.kid), published now; the next rotate after \(from) makes it sign")
                continue
            }
            let next = contents.keys[nextIndex]
            let from = timing.promotable(createdAt: LogTimestamp.date(utcSeconds: next.createdAt) ?? now)
            if from > now && !force {
                refusals.append(
                    "\(alg): next key \(next.kid) was published at \(next.createdAt); it may sign from "
                        + "\(LogTimestamp.utcSeconds(from)) (signingKeys.publishBeforeSigningSeconds, so relying parties "
                        + "have fetched it); --force promotes it now")
                continue
            }
            for index in contents.keys.indices where contents.keys[index].alg == alg && contents.keys[index].status == "current" {
                contents.keys[index].status = SigningKeyStatus.previous.rawValue
                contents.keys[index].previousSince = LogTimestamp.utcSeconds(now)
                changes.append("\(alg): key \(contents.keys[index].kid) is previous (published, no longer signing)")
            }
            contents.keys[nextIndex].status = SigningKeyStatus.current.rawValue
            changes.append("\(alg): key \(next.kid) is current (signing)")
        }
        guard refusals.isEmpty else { throw SigningKeyRefusal(reasons: refusals) }
        return changes
    }

    /// Removes the previous keys of `algorithms` once every token they signed has expired; refuses, removing
    /// nothing, while one has not (unless `force`).
    static func retire(
        _ contents: inout Contents, algorithms: [String], timing: SigningKeyTiming, now: Date, force: Bool
    ) throws(SigningKeyRefusal) -> [String] {
        let previous = contents.keys.filter { algorithms.contains($0.alg) && $0.status == "previous" }
        var refusals: [String] = []
        for entry in previous {
            let since = entry.previousSince.flatMap(LogTimestamp.date(utcSeconds:)) ?? now
            let from = timing.retirable(entry.alg, previousSince: since)
            if from > now {
                refusals.append(
                    "\(entry.alg): previous key \(entry.kid) stopped signing at \(LogTimestamp.utcSeconds(since)); tokens it "
                        + "signed may be verified until \(LogTimestamp.utcSeconds(from)); --force retires it anyway")
            }
        }
        if !refusals.isEmpty && !force { throw SigningKeyRefusal(reasons: refusals) }
        let retired = Set(previous.map(\.kid))
        contents.keys.removeAll { retired.contains($0.kid) }
        return previous.map { "\($0.alg): retired key \($0.kid)" }
    }

    /// Writes the statuses a file without them implies, and a `previousSince` of now where none is known, so every
    /// later step reads explicit, conservative facts.
    static func stampStatuses(_ contents: inout Contents, now: Date) {
        let statuses = contents.keys.indices.map { contents.status(of: $0) }
        for (index, status) in statuses.enumerated() {
            contents.keys[index].status = status.rawValue
            if status == .previous && contents.keys[index].previousSince == nil {
                contents.keys[index].previousSince = LogTimestamp.utcSeconds(now)
            }
        }
    }
}
