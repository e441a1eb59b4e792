import Crypto
import CryptoExtras
import Foundation
import JWTKit

#if canImport(Glibc)
import Glibc
#endif

/// Reads the signing keys from their file, or creates the file with fresh keys when it does not exist.
///
/// The file holds private keys: it is written with mode 0600 and replaced atomically, so a crash never leaves a
/// half-written key behind. A file written before RS256 was supported (ES256 keys only) gets an RSA key added once.
/// Creating and extending happen under an exclusive lock on a sidecar file, so several instances starting at once on
/// one shared key file end up with one key set, not one each. Problems are configuration errors naming
/// `signingKeys.file`.
public enum SigningKeyFile {
    struct Contents: Codable {
        struct Entry: Codable {
            var kid: String
            var alg: String
            var createdAt: String
            var privateKeyPEM: String
        }
        var keys: [Entry]

        var hasEveryKind: Bool { ["ES256", "RS256"].allSatisfy { alg in keys.contains { $0.alg == alg } } }
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
            if contents.hasEveryKind { return (contents, false) }
        }
        let lock = try FileLock(path: path + ".lock")
        defer { lock.release() }
        var contents = Contents(keys: [])
        if FileManager.default.fileExists(atPath: path) { contents = try read(path: path) }
        guard !contents.hasEveryKind else { return (contents, false) }
        do {
            if !contents.keys.contains(where: { $0.alg == "ES256" }) {
                let key = try SigningKeySet.Key(signingKey: P256.Signing.PrivateKey())
                contents.keys.append(entry(kid: key.kid, alg: "ES256", pem: key.privateKey.pemRepresentation))
            }
            if !contents.keys.contains(where: { $0.alg == "RS256" }) {
                let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
                let key = try SigningKeySet.RSAKey(signingKey: rsa)
                contents.keys.append(entry(kid: key.kid, alg: "RS256", pem: rsa.pemRepresentation))
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try write(try encoder.encode(contents), to: path)
        } catch {
            throw problem("cannot write the key file \(path): \(error)")
        }
        return (contents, true)
    }

    static func entry(kid: String, alg: String, pem: String) -> Contents.Entry {
        .init(kid: kid, alg: alg, createdAt: LogTimestamp.utcSeconds(Date()), privateKeyPEM: pem)
    }

    static func read(path: String) throws(ConfigurationError) -> Contents {
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard data.count <= 1 << 20 else { throw problem("the key file \(path) is over 1 MiB") }
            let contents = try JSONDecoder().decode(Contents.self, from: data)
            guard !contents.keys.isEmpty else { throw problem("the key file \(path) has no keys") }
            // Judged before anything is added to the file, so a file with a foreign key is never rewritten.
            if let (index, entry) = contents.keys.enumerated().first(where: { !["ES256", "RS256"].contains($0.element.alg) }) {
                throw problem("key \(index) of \(path): alg \(entry.alg) is neither ES256 nor RS256")
            }
            return contents
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw problem("cannot read the key file \(path): \(error)")
        }
    }

    static func load(path: String) async throws(ConfigurationError) -> SigningKeySet {
        try await keySet(try read(path: path), path: path)
    }

    static func keySet(_ contents: Contents, path: String) async throws(ConfigurationError) -> SigningKeySet {
        var keys: [SigningKeySet.Key] = []
        var rsaKeys: [SigningKeySet.RSAKey] = []
        for (index, entry) in contents.keys.enumerated() {
            switch entry.alg {
            case "ES256":
                do {
                    keys.append(try SigningKeySet.Key(signingKey: P256.Signing.PrivateKey(pemRepresentation: entry.privateKeyPEM)))
                } catch {
                    throw problem("key \(index) of \(path) is not a P-256 private key in PEM form")
                }
            case "RS256":
                guard let rsa = try? _RSA.Signing.PrivateKey(pemRepresentation: entry.privateKeyPEM) else {
                    throw problem("key \(index) of \(path) is not an RSA private key in PEM form")
                }
                do {
                    rsaKeys.append(try SigningKeySet.RSAKey(signingKey: rsa))
                } catch {
                    throw problem("key \(index) of \(path): an RS256 key needs 2048 bits or more (RFC 7518 §3.3)")
                }
            default:
                throw problem("key \(index) of \(path): alg \(entry.alg) is neither ES256 nor RS256")
            }
        }
        guard !keys.isEmpty else { throw problem("the key file \(path) has no ES256 key") }
        guard !rsaKeys.isEmpty else { throw problem("the key file \(path) has no RS256 key") }
        do {
            return try await SigningKeySet(keys: keys, rsaKeys: rsaKeys)
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

/// An exclusive advisory lock (flock(2)) on a sidecar file, held while the key file is read and possibly written.
struct FileLock {
    let descriptor: Int32

    init(path: String) throws(ConfigurationError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SigningKeyFile.problem("cannot open the lock file \(path): errno \(errno)")
        }
        guard flock(descriptor, LOCK_EX) == 0 else {
            close(descriptor)
            throw SigningKeyFile.problem("cannot lock \(path): errno \(errno)")
        }
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
