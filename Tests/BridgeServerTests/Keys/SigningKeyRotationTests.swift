@testable import BridgeServer
import BridgeStore
import Foundation
import JWTKit
import Logging
import SignInProtocol
import Testing

/// Rotation of the signing key file: a next key is published before it signs, a token signed before a rotation
/// still verifies after it, and a previous key leaves the JWKS only once its tokens have expired.
@Suite("Signing key rotation")
struct SigningKeyRotationTests {
    /// A day before signing; access and ID tokens an hour, WOPI tokens (ES256 seals) ten hours.
    static let timing = SigningKeyTiming(publishBeforeSigning: 86_400, tokenLifetime: ["ES256": 36_000, "RS256": 3_600])
    static let slack = SigningKeyTiming.reloadSlack

    static func newFile() async throws -> (path: String, keys: SigningKeySet) {
        let path = try SigningKeyFileTests.folder().appendingPathComponent("signing-keys.json").path
        return (path, try await SigningKeyFile.loadOrCreate(path: path).keys)
    }

    static func publishedKids(_ keys: SigningKeySet) throws -> Set<String> {
        let jwks = try JSONSerialization.jsonObject(with: Data(keys.jwksJSON.utf8)) as? [String: [[String: String]]]
        return Set((jwks?["keys"] ?? []).compactMap { $0["kid"] })
    }

    @Test func aNextKeyIsPublishedButDoesNotSignUntilItHasBeenPublishedLongEnough() async throws {
        let (path, keys) = try await Self.newFile()
        let start = Date()
        let added = try SigningKeyFile.rotate(path: path, algorithms: ["ES256", "RS256"], timing: Self.timing, now: start)
        #expect(added.count == 2 && added.allSatisfy { $0.contains("added next key") }, "\(added)")
        let withNext = try await SigningKeyFile.load(path: path)
        #expect(withNext.signingKey.kid == keys.signingKey.kid && withNext.rsaSigningKey.kid == keys.rsaSigningKey.kid)
        #expect(try Self.publishedKids(withNext).count == 4)

        let early = start.addingTimeInterval(86_400)
        let refusal = #expect(throws: SigningKeyRefusal.self) {
            try SigningKeyFile.rotate(path: path, algorithms: ["ES256"], timing: Self.timing, now: early)
        }
        #expect(refusal?.description.contains("may sign from") == true)
        #expect(try await SigningKeyFile.load(path: path).signingKey.kid == keys.signingKey.kid, "a refusal writes nothing")

        let late = start.addingTimeInterval(86_400 + Self.slack + 1)
        _ = try SigningKeyFile.rotate(path: path, algorithms: ["ES256", "RS256"], timing: Self.timing, now: late)
        let rotated = try await SigningKeyFile.load(path: path)
        #expect(rotated.signingKey.kid != keys.signingKey.kid && rotated.rsaSigningKey.kid != keys.rsaSigningKey.kid)
        #expect(try Self.publishedKids(rotated) == Self.publishedKids(withNext))
    }

    @Test func tokensSignedBeforeARotationVerifyAfterIt() async throws {
        let (path, keys) = try await Self.newFile()
        let issuer = IDTokenIssuer(keys: keys, issuer: "https://contoso.com", lifetime: 3_600)
        let seal = WopiAccessTokenSeal(keys: keys)
        let now = Date()
        let rs256 = try issuer.idToken(subject: "alice", clientID: "app", nonce: nil, authTime: nil, accessToken: nil, algorithm: .rs256, at: now)
        let es256 = try issuer.idToken(subject: "alice", clientID: "app", nonce: nil, authTime: nil, accessToken: nil, algorithm: .es256, at: now)
        let wopi = seal.seal(WopiAccessTokenClaims(grantID: GrantID("g"), wopiSource: nil, issuedAt: now, expiresAt: now.addingTimeInterval(60)))

        _ = try SigningKeyFile.rotate(path: path, algorithms: ["ES256", "RS256"], timing: Self.timing, now: now, force: true)
        _ = try SigningKeyFile.rotate(path: path, algorithms: ["ES256", "RS256"], timing: Self.timing, now: now, force: true)
        // What `serve` does when the file changes: every holder of the set sees the new keys.
        await SigningKeyFileWatch(path: path, keys: keys, logger: Logger(label: "test")).reload()
        #expect(issuer.keys.signingKey.kid != SigningKeySet.Key.kid(of: es256))

        for token in [rs256, es256] { _ = try await keys.collection.verify(token, as: IDTokenClaims.self) }
        #expect(try seal.open(wopi).grantID == GrantID("g"))
        let after = try issuer.idToken(subject: "bob", clientID: "app", nonce: nil, authTime: nil, accessToken: nil, algorithm: .rs256, at: now)
        #expect(SigningKeySet.Key.kid(of: after) == keys.rsaSigningKey.kid)
        #expect(SigningKeySet.Key.kid(of: after) != SigningKeySet.Key.kid(of: rs256))
        // A relying party holding nothing but the published JWKS verifies both.
        let published = try await JWTKeyCollection().add(jwksJSON: keys.jwksJSON)
        for token in [rs256, after] { _ = try await published.verify(token, as: IDTokenClaims.self) }
    }

    @Test func aPreviousKeyLeavesTheJWKSOnlyOnceItsTokensHaveExpired() async throws {
        let (path, keys) = try await Self.newFile()
        let start = Date()
        _ = try SigningKeyFile.rotate(path: path, algorithms: ["ES256", "RS256"], timing: Self.timing, now: start)
        let promoted = start.addingTimeInterval(86_400 + Self.slack)
        _ = try SigningKeyFile.rotate(path: path, algorithms: ["ES256", "RS256"], timing: Self.timing, now: promoted)

        // RS256 tokens live an hour; ES256 also seals WOPI tokens, which live ten.
        let afterAnHour = promoted.addingTimeInterval(3_600 + Self.slack)
        let refusal = #expect(throws: SigningKeyRefusal.self) {
            try SigningKeyFile.retire(path: path, algorithms: ["ES256", "RS256"], timing: Self.timing, now: afterAnHour)
        }
        #expect(refusal?.reasons.count == 1 && refusal?.reasons.first?.hasPrefix("ES256: previous key \(keys.signingKey.kid)") == true)
        #expect(try Self.publishedKids(try await SigningKeyFile.load(path: path)).contains(keys.rsaSigningKey.kid))

        let retiredRSA = try SigningKeyFile.retire(path: path, algorithms: ["RS256"], timing: Self.timing, now: afterAnHour)
        #expect(retiredRSA == ["RS256: retired key \(keys.rsaSigningKey.kid)"])
        let afterTenHours = promoted.addingTimeInterval(36_000 + Self.slack)
        #expect(try SigningKeyFile.retire(path: path, algorithms: ["ES256"], timing: Self.timing, now: afterTenHours).count == 1)
        let kids = try Self.publishedKids(try await SigningKeyFile.load(path: path))
        #expect(kids.count == 2 && !kids.contains(keys.signingKey.kid) && !kids.contains(keys.rsaSigningKey.kid))
    }

    /// ES256 waits for the longest of its tokens: access tokens, or the WOPI tokens sealed with keys derived from it.
    @Test func theWaitsComeFromTheConfiguration() throws {
        let yaml = """
            issuer: https://files.example
            signingKeys: {publishBeforeSigningSeconds: 60}
            tokens: {accessTokenLifetimeSeconds: 900}
            wopi:
              ecosystemUrlTemplate: https://files.example/wopi/ecosystem?access_token={access_token}
              rootContainer: {name: Files, urlTemplate: "https://files.example/wopi/root?access_token={access_token}"}
              wopiSrcPrefixes: [https://files.example/wopi/files/]
              accessTokenLifetimeSeconds: 7200
            """
        let loaded = try ConfigurationLoader(environment: [:]).load(yaml: yaml)
        let timing = SigningKeyTiming(configuration: loaded.configuration)
        #expect(timing.publishBeforeSigning == 60)
        #expect(timing.tokenLifetime == ["ES256": 7200, "RS256": 900])
        let warning = loaded.warnings.first { $0.keyPath == "signingKeys.publishBeforeSigningSeconds" }
        #expect(warning?.message.contains("max-age=300") == true, "\(loaded.warnings)")
    }

    /// `serve` notices a rotation by the file's identity: every change replaces the file, so the identity changes.
    @Test func theWatchSeesEveryChangeOfTheFile() async throws {
        let (path, _) = try await Self.newFile()
        let before = try #require(SigningKeyFileWatch.Identity(path: path))
        #expect(SigningKeyFileWatch.Identity(path: path) == before)
        _ = try SigningKeyFile.rotate(path: path, algorithms: ["ES256"], timing: Self.timing)
        #expect(SigningKeyFileWatch.Identity(path: path) != before)
    }

    @Test func forceRetiresEarly() async throws {
        let (path, keys) = try await Self.newFile()
        _ = try SigningKeyFile.rotate(path: path, algorithms: ["ES256"], timing: Self.timing, force: true)
        _ = try SigningKeyFile.rotate(path: path, algorithms: ["ES256"], timing: Self.timing, force: true)
        #expect(throws: SigningKeyRefusal.self) { try SigningKeyFile.retire(path: path, algorithms: ["ES256"], timing: Self.timing) }
        #expect(try SigningKeyFile.retire(path: path, algorithms: ["ES256"], timing: Self.timing, force: true) == ["ES256: retired key \(keys.signingKey.kid)"])
    }

    /// A file from before rotation: the first key of each kind signs (as it did), the others are previous, and a
    /// retire first records since when, so it waits a full token lifetime rather than guessing.
    @Test func aFileWithoutStatusesKeepsItsSigningKeyAndWaitsBeforeRetiring() async throws {
        let (path, _) = try await Self.newFile()
        var contents = try SigningKeyFile.read(path: path)
        let extra = try SigningKeyFile.newEntry(alg: "ES256", status: .current, at: Date())
        contents.keys.append(extra)
        for index in contents.keys.indices { contents.keys[index].status = nil }
        try SigningKeyFile.write(contents, to: path)
        let first = contents.keys[0].kid

        let listed = try SigningKeyFile.list(path: path, timing: Self.timing)
        #expect(listed.map(\.status) == [.current, .previous, .current])
        #expect(try await SigningKeyFile.load(path: path).signingKey.kid == first)
        #expect(throws: SigningKeyRefusal.self) { try SigningKeyFile.retire(path: path, algorithms: ["ES256"], timing: Self.timing) }
        let stamped = try SigningKeyFile.read(path: path)
        #expect(stamped.keys.first { $0.kid == extra.kid }?.previousSince != nil)
    }

    @Test(arguments: [
        (#""status":"retired""#, "status retired is not next, current or previous"),
        (#""status":"current","previousSince":"yesterday""#, "previousSince yesterday is not a UTC time"),
    ])
    func badStatusesAreNamed(fields: String, problem: String) async throws {
        let (path, _) = try await Self.newFile()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let changed = text.replacingOccurrences(of: #""status" : "current""#, with: fields.replacingOccurrences(of: ":", with: " : "))
        #expect(changed != text)
        try Data(changed.utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: ConfigurationError.self) { try SigningKeyFile.read(path: path) }
        #expect(error?.description.contains(problem) == true, "\(String(describing: error))")
    }

    @Test func twoCurrentKeysOfOneKindAreRefused() async throws {
        let (path, _) = try await Self.newFile()
        var contents = try SigningKeyFile.read(path: path)
        contents.keys.append(try SigningKeyFile.newEntry(alg: "RS256", status: .current, at: Date()))
        try SigningKeyFile.write(contents, to: path)
        let error = #expect(throws: ConfigurationError.self) { try SigningKeyFile.read(path: path) }
        #expect(error?.description.contains("2 current RS256 keys") == true, "\(String(describing: error))")
    }
}

extension SigningKeySet.Key {
    /// The `kid` of a compact JWS's header.
    static func kid(of token: String) -> String? {
        let header = token.split(separator: ".").first.flatMap { Base64URL.decode(String($0)) }
        let object = header.flatMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: String] }
        return object?["kid"]
    }
}
