import Crypto
import Foundation
import JWTKit

/// Reads the signing keys from their file, or creates the file with one fresh key when it does not exist.
///
/// The file holds private keys: it is written with mode 0600 and replaced atomically, so a crash never leaves a
/// half-written key behind. Problems are reported as configuration errors naming `signingKeys.file`.
public enum SigningKeyFile {
    struct Contents: Codable {
        struct Entry: Codable {
            var kid: String
            var alg: String
            var createdAt: String
            var privateKeyPEM: String
        }
        var keys: [Entry]
    }

    /// Loads the key set; `created` tells whether a new file was written.
    public static func loadOrCreate(path: String) async throws(ConfigurationError) -> (keys: SigningKeySet, created: Bool) {
        if FileManager.default.fileExists(atPath: path) {
            return (try await load(path: path), false)
        }
        do {
            let key = try SigningKeySet.Key(signingKey: P256.Signing.PrivateKey())
            let contents = Contents(keys: [
                .init(
                    kid: key.kid, alg: "ES256", createdAt: LogTimestamp.utcSeconds(Date()),
                    privateKeyPEM: key.privateKey.pemRepresentation)
            ])
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try write(try encoder.encode(contents), to: path)
            return (await SigningKeySet(keys: [key]), true)
        } catch {
            throw problem("cannot create the key file \(path): \(error.localizedDescription)")
        }
    }

    static func load(path: String) async throws(ConfigurationError) -> SigningKeySet {
        let contents: Contents
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard data.count <= 1 << 20 else { throw problem("the key file \(path) is over 1 MiB") }
            contents = try JSONDecoder().decode(Contents.self, from: data)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw problem("cannot read the key file \(path): \(error)")
        }
        guard !contents.keys.isEmpty else { throw problem("the key file \(path) has no keys") }
        var keys: [SigningKeySet.Key] = []
        for (index, entry) in contents.keys.enumerated() {
            guard entry.alg == "ES256" else { throw problem("key \(index) of \(path): alg \(entry.alg) is not ES256") }
            do {
                keys.append(try SigningKeySet.Key(signingKey: P256.Signing.PrivateKey(pemRepresentation: entry.privateKeyPEM)))
            } catch {
                throw problem("key \(index) of \(path) is not a P-256 private key in PEM form")
            }
        }
        return await SigningKeySet(keys: keys)
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
