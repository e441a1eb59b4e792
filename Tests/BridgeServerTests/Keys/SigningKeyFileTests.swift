@testable import BridgeServer
import Crypto
import Foundation
import JWTKit
import SignInProtocol
import Testing

/// The signing key file: a P-256 key and an RSA key (RS256 ID tokens, OpenID Connect Core §15.1), created once,
/// kept across restarts, completed once when an older file lacks the RSA key, and refused when a key is unusable.
@Suite("Signing key file")
struct SigningKeyFileTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aNewFileHoldsOneKeyOfEachKindAndIsReadBackUnchanged() async throws {
        let path = try Self.folder().appendingPathComponent("signing-keys.json").path
        let (created, wasCreated) = try await SigningKeyFile.loadOrCreate(path: path)
        #expect(wasCreated)
        #expect(created.keys.count == 1 && created.rsaKeys.count == 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let (loaded, wasCreatedAgain) = try await SigningKeyFile.loadOrCreate(path: path)
        #expect(!wasCreatedAgain)
        #expect(loaded.signingKey.kid == created.signingKey.kid)
        #expect(loaded.rsaSigningKey.kid == created.rsaSigningKey.kid)
    }

    /// A file from before RS256 (ES256 keys only) keeps its keys, so tokens already issued still verify, and gains
    /// one RSA key, once.
    @Test func anES256OnlyFileGainsAnRSAKeyOnce() async throws {
        let path = try Self.folder().appendingPathComponent("signing-keys.json").path
        let old = try SigningKeySet.Key(signingKey: P256.Signing.PrivateKey())
        let contents = #"{"keys":[{"alg":"ES256","createdAt":"2026-11-01T00:00:00Z","kid":"\#(old.kid)","privateKeyPEM":"\#(old.privateKey.pemRepresentation.replacingOccurrences(of: "\n", with: "\\n"))"}]}"#
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        let (first, extended) = try await SigningKeyFile.loadOrCreate(path: path)
        #expect(extended)
        #expect(first.signingKey.kid == old.kid)
        let (second, extendedAgain) = try await SigningKeyFile.loadOrCreate(path: path)
        #expect(!extendedAgain)
        #expect(second.rsaSigningKey.kid == first.rsaSigningKey.kid)
    }

    @Test func concurrentStartsOnOneEmptyFileAgreeOnOneKeySet() async throws {
        let path = try Self.folder().appendingPathComponent("signing-keys.json").path
        let kids = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let keys = try await SigningKeyFile.loadOrCreate(path: path).keys
                    return [keys.signingKey.kid, keys.rsaSigningKey.kid]
                }
            }
            return try await group.reduce(into: Set<[String]>()) { $0.insert($1) }
        }
        #expect(kids.count == 1)
    }

    /// Instances starting while an operator rotates: the lock orders them, so the file ends with one current and
    /// one next key of each kind, and every start saw the same signing keys.
    @Test func concurrentStartsAndARotationAgreeOnOneFile() async throws {
        let path = try Self.folder().appendingPathComponent("signing-keys.json").path
        let timing = SigningKeyTiming(publishBeforeSigning: 86_400, tokenLifetime: [:])
        let kids = try await withThrowingTaskGroup(of: [String]?.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let keys = try await SigningKeyFile.loadOrCreate(path: path).keys
                    return [keys.signingKey.kid, keys.rsaSigningKey.kid]
                }
            }
            group.addTask {
                _ = try SigningKeyFile.rotate(path: path, algorithms: ["ES256", "RS256"], timing: timing)
                return nil
            }
            return try await group.reduce(into: Set<[String]>()) { kids, started in if let started { kids.insert(started) } }
        }
        #expect(kids.count == 1)
        let listed = try SigningKeyFile.list(path: path, timing: timing)
        #expect(listed.map(\.status) == [.current, .next, .current, .next])
        #expect(listed.filter { $0.status == .current }.map(\.kid) == kids.first)
    }

    @Test(arguments: [
        (#"{"keys":[]}"#, "has no keys"),
        (#"{"keys":[{"alg":"HS256","createdAt":"x","kid":"k","privateKeyPEM":"x"}]}"#, "neither ES256 nor RS256"),
        (#"{"keys":[{"alg":"RS256","createdAt":"x","kid":"k","privateKeyPEM":"not a key"}]}"#, "not an RSA private key"),
    ])
    func unusableFilesAreConfigurationErrorsNamingTheFile(contents: String, problem: String) async throws {
        let path = try Self.folder().appendingPathComponent("signing-keys.json").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        let error = await #expect(throws: ConfigurationError.self) { try await SigningKeyFile.loadOrCreate(path: path) }
        #expect(error?.problems.first?.keyPath == "signingKeys.file")
        #expect(error?.problems.first?.message.contains(problem) == true, "\(String(describing: error))")
    }

    /// RFC 7517 §4 / RFC 7518 §6: both keys published with kid, alg and use; the RSA kid is its RFC 7638 thumbprint,
    /// so an RS256 token verifies with nothing but the published JWKS.
    @Test func theJWKSPublishesBothKeysAndVerifiesAnRS256IDToken() async throws {
        let keys = try await SigningKeySet.generate()
        let jwks = try #require(try JSONSerialization.jsonObject(with: Data(keys.jwksJSON.utf8)) as? [String: [[String: String]]])
        let published = try #require(jwks["keys"])
        #expect(Set(published.map { $0["alg"] ?? "" }) == ["ES256", "RS256"])
        let rsa = try #require(published.first { $0["kty"] == "RSA" })
        #expect(rsa["use"] == "sig" && rsa["e"] == "AQAB")
        #expect((Base64URL.decode(rsa["n"] ?? "")?.count ?? 0) * 8 >= 2048)
        let canonical = #"{"e":"\#(rsa["e"]!)","kty":"RSA","n":"\#(rsa["n"]!)"}"#
        #expect(rsa["kid"] == Base64URL.encode(Data(SHA256.hash(data: Data(canonical.utf8)))))
        let issuer = IDTokenIssuer(keys: keys, issuer: "https://contoso.com", lifetime: 60)
        let token = try issuer.idToken(
            subject: "alice", clientID: "app", nonce: "n", authTime: nil, accessToken: nil, algorithm: .rs256, at: Date())
        let verifier = try await JWTKeyCollection().add(jwksJSON: keys.jwksJSON)
        let claims = try await verifier.verify(token, as: IDTokenClaims.self)
        #expect(claims.sub == "alice" && claims.aud == "app")
        // A changed signature does not verify.
        let parts = token.split(separator: ".").map(String.init)
        let signature = (parts[2].first == "A" ? "B" : "A") + String(parts[2].dropFirst())
        let flipped = [parts[0], parts[1], signature].joined(separator: ".")
        await #expect(throws: (any Error).self) { _ = try await verifier.verify(flipped, as: IDTokenClaims.self) }
    }
}
