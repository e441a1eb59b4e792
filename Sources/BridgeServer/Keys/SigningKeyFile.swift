import BridgeHTTP
import Crypto
import CryptoExtras
import Foundation
import JWTKit
import SignInProtocol

#if canImport(Glibc)
import Glibc
#endif

/// Reads the signing keys from their file, or creates the file with fresh keys when it does not exist.
///
/// Each key has a status (`SigningKeyStatus`): the current key of each algorithm signs, next and previous keys are
/// only published. A file written before rotation existed has no statuses: the first key of each algorithm is
/// current, the others previous, which is what the server did with them then. `SigningKeyRotation` changes them.
///
/// The file holds private keys: it is written with mode 0600 and replaced atomically, so a crash never leaves a
/// half-written key behind. A file written before RS256 was supported (ES256 keys only) gets an RSA key added once.
/// Creating and extending happen under an exclusive lock on a sidecar file, so several instances starting at once on
/// one shared key file end up with one key set, not one each. Problems are configuration errors naming
/// `signingKeys.file`.
public enum SigningKeyFile {
    struct Contents: Codable, Equatable {
        struct Entry: Codable, Equatable {
            var kid: String
            var alg: String
            /// When the key was written to the file, which is when it was first published.
            var createdAt: String
            var privateKeyPEM: String
            /// `next`, `current` or `previous`; nil in files written before rotation (`Contents.status(of:)`).
            var status: String?
            /// When the key stopped signing (became previous): its tokens expire within their lifetime from then.
            var previousSince: String?
        }
        var keys: [Entry]
        /// base64url of 32 random bytes: the secret of the stateless DPoP nonces (`DPoPNonces`). Kept here so that
        /// every instance sharing the key file accepts every other's nonces; rotation leaves it as it is.
        var dpopNonceSecret: String?

        static let algorithms = ["ES256", "RS256"]

        var hasEveryKind: Bool { Self.algorithms.allSatisfy { alg in keys.contains { $0.alg == alg } } }
        /// A key of each kind and the nonce secret: nothing to add.
        var isComplete: Bool { hasEveryKind && dpopNonceSecret.flatMap(Base64URL.decode)?.count == 32 }

        /// The written status, or for a file without statuses: the first key of its algorithm is current, the rest
        /// previous (the server signed with the first and published all).
        func status(of index: Int) -> SigningKeyStatus {
            let entry = keys[index]
            if let written = entry.status.flatMap(SigningKeyStatus.init(rawValue:)) { return written }
            let sameAlgorithm = keys.indices.filter { keys[$0].alg == entry.alg }
            let hasWrittenCurrent = sameAlgorithm.contains { keys[$0].status == SigningKeyStatus.current.rawValue }
            let firstUnwritten = sameAlgorithm.first { keys[$0].status == nil }
            return !hasWrittenCurrent && firstUnwritten == index ? .current : .previous
        }

        /// The keys of `alg` in the order the server uses them: current (the signing key) first, then next, then
        /// previous, each in file order.
        func ordered(_ alg: String) -> [Entry] {
            keys.indices.filter { keys[$0].alg == alg }.sorted { (status(of: $0).rank, $0) < (status(of: $1).rank, $1) }
                .map { keys[$0] }
        }
    }

    /// Loads the key set; `created` tells whether the file was written (created, or given the key it lacked).
    public static func loadOrCreate(path: String) async throws(ConfigurationError) -> (keys: SigningKeySet, created: Bool) {
        let (contents, changed) = try completedContents(path: path)
        return (try await keySet(contents, path: path), changed)
    }

    /// The file's contents with a key of each kind, written back when one was missing. Synchronous on purpose: the
    /// lock is held across no suspension point, so tasks waiting for it cannot starve the one holding it.
    static func completedContents(path: String) throws(ConfigurationError) -> (Contents, changed: Bool) {
        // A complete file is only read, so a key file mounted read-only works.
        if FileManager.default.fileExists(atPath: path) {
            let contents = try read(path: path)
            if contents.isComplete { return (contents, false) }
        }
        let lock = try FileLock(path: path + ".lock")
        defer { lock.release() }
        var contents = Contents(keys: [])
        if FileManager.default.fileExists(atPath: path) { contents = try read(path: path) }
        guard !contents.isComplete else { return (contents, false) }
        do {
            for alg in Contents.algorithms where !contents.keys.contains(where: { $0.alg == alg }) {
                contents.keys.append(try newEntry(alg: alg, status: .current, at: Date()))
            }
            if contents.dpopNonceSecret.flatMap(Base64URL.decode)?.count != 32 {
                contents.dpopNonceSecret = SymmetricKey(size: .bits256).withUnsafeBytes { Base64URL.encode($0) }
            }
            try write(contents, to: path)
        } catch {
            throw problem("cannot write the key file \(path): \(error)")
        }
        return (contents, true)
    }

    /// A fresh key of `alg` (a P-256 key, or a 2048-bit RSA key: RFC 7518 §3.3's minimum).
    static func newEntry(alg: String, status: SigningKeyStatus, at now: Date) throws -> Contents.Entry {
        let kid: String
        let pem: String
        if alg == "ES256" {
            let key = try SigningKeySet.Key(signingKey: P256.Signing.PrivateKey())
            (kid, pem) = (key.kid, key.privateKey.pemRepresentation)
        } else {
            let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            (kid, pem) = (try SigningKeySet.RSAKey(signingKey: rsa).kid, rsa.pemRepresentation)
        }
        return .init(
            kid: kid, alg: alg, createdAt: LogTimestamp.utcSeconds(now), privateKeyPEM: pem, status: status.rawValue)
    }

    static func write(_ contents: Contents, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try write(try encoder.encode(contents), to: path)
    }

    static func read(path: String) throws(ConfigurationError) -> Contents {
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard data.count <= 1 << 20 else { throw problem("the key file \(path) is over 1 MiB") }
            let contents = try JSONDecoder().decode(Contents.self, from: data)
            guard !contents.keys.isEmpty else { throw problem("the key file \(path) has no keys") }
            // Judged before anything is added to the file, so a file with a foreign key is never rewritten.
            if let (index, entry) = contents.keys.enumerated().first(where: { !Contents.algorithms.contains($0.element.alg) }) {
                throw problem("key \(index) of \(path): alg \(entry.alg) is neither ES256 nor RS256")
            }
            try checkStatuses(contents, path: path)
            return contents
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw problem("cannot read the key file \(path): \(error)")
        }
    }

    /// Statuses are known words, each algorithm has at most one current and one next key, and a previous key says
    /// since when, so that `keys retire` can tell when its tokens have expired.
    static func checkStatuses(_ contents: Contents, path: String) throws(ConfigurationError) {
        for (index, entry) in contents.keys.enumerated() {
            if let status = entry.status, SigningKeyStatus(rawValue: status) == nil {
                throw problem("key \(index) of \(path): status \(status) is not next, current or previous")
            }
            if let since = entry.previousSince, LogTimestamp.date(utcSeconds: since) == nil {
                throw problem("key \(index) of \(path): previousSince \(since) is not a UTC time (YYYY-MM-DDTHH:MM:SSZ)")
            }
        }
        for alg in Contents.algorithms {
            for status in [SigningKeyStatus.current, .next] {
                let count = contents.keys.indices.filter { contents.keys[$0].alg == alg && contents.status(of: $0) == status }.count
                if count > 1 { throw problem("\(path) has \(count) \(status.rawValue) \(alg) keys; at most one is allowed") }
            }
        }
    }

    static func load(path: String) async throws(ConfigurationError) -> SigningKeySet {
        try await keySet(try read(path: path), path: path)
    }

    static func keySet(_ contents: Contents, path: String) async throws(ConfigurationError) -> SigningKeySet {
        var keys: [SigningKeySet.Key] = []
        var rsaKeys: [SigningKeySet.RSAKey] = []
        // The signing key of each kind first (`SigningKeySet.signingKey`), then the other published keys.
        for entry in (contents.ordered("ES256") + contents.ordered("RS256")) {
            switch entry.alg {
            case "ES256":
                do {
                    keys.append(try SigningKeySet.Key(signingKey: P256.Signing.PrivateKey(pemRepresentation: entry.privateKeyPEM)))
                } catch {
                    throw problem("key \(entry.kid) of \(path) is not a P-256 private key in PEM form")
                }
            case "RS256":
                guard let rsa = try? _RSA.Signing.PrivateKey(pemRepresentation: entry.privateKeyPEM) else {
                    throw problem("key \(entry.kid) of \(path) is not an RSA private key in PEM form")
                }
                do {
                    rsaKeys.append(try SigningKeySet.RSAKey(signingKey: rsa))
                } catch {
                    throw problem("key \(entry.kid) of \(path): an RS256 key needs 2048 bits or more (RFC 7518 §3.3)")
                }
            default:
                throw problem("key \(entry.kid) of \(path): alg \(entry.alg) is neither ES256 nor RS256")
            }
        }
        guard !keys.isEmpty else { throw problem("the key file \(path) has no ES256 key") }
        guard !rsaKeys.isEmpty else { throw problem("the key file \(path) has no RS256 key") }
        do {
            let secret = contents.dpopNonceSecret.flatMap(Base64URL.decode).map { SymmetricKey(data: $0) }
            return try await SigningKeySet(keys: keys, rsaKeys: rsaKeys, dpopNonceSecret: secret ?? SymmetricKey(size: .bits256))
        } catch {
            throw problem("the keys of \(path) cannot be used: \(error)")
        }
    }

    /// Writes `data` to a temporary file with mode 0600 in the same folder, then renames it over `path`.
    static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown) }
        if rename(temporary.path, url.path) != 0 {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }

    static func problem(_ message: String) -> ConfigurationError {
        ConfigurationError(file: nil, problems: [ConfigurationProblem(keyPath: "signingKeys.file", message: message)])
    }
}
