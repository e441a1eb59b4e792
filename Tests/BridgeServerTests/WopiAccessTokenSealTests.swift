@testable import BridgeServer
import BridgeStore
import Crypto
import Foundation
import Testing

@Suite("WOPI access token seal")
struct WopiAccessTokenSealTests {
    static let claims = WopiAccessTokenClaims(
        grantID: GrantID("0b8c7a6e-2f1d-4c3b-9a8e-7d6c5b4a3f2e"), wopiSource: "https://contoso.com/wopi/files/42",
        issuedAt: Date(timeIntervalSince1970: 1_800_000_000.123), expiresAt: Date(timeIntervalSince1970: 1_800_036_000.123))

    static func keySet(_ keys: P256.Signing.PrivateKey...) async throws -> SigningKeySet {
        try await SigningKeySet(
            keys: try keys.map { try SigningKeySet.Key(signingKey: $0) }, rsaKeys: SigningKeySet.generate().rsaKeys)
    }

    @Test(arguments: [
        nil, "https://contoso.com/wopi/files/42", "https://contoso.com/wopi/files/a.b?x=1&y=2",
        "https://contoso.com/wopi/files/line\nbreak", "",
    ])
    func whatIsSealedOpensUnchanged(wopiSource: String?) async throws {
        let seal = WopiAccessTokenSeal(keys: try await SigningKeySet.generate())
        var claims = Self.claims
        claims.wopiSource = wopiSource
        let token = seal.seal(claims)
        #expect(try seal.open(token) == claims)
        // It goes into URLs and headers as it is: RFC 3986 unreserved characters only.
        #expect(token.unicodeScalars.allSatisfy { CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~").contains($0) })
        #expect(token.hasPrefix("w1."))
    }

    @Test func anotherInstanceWithTheSameKeyFileOpensIt() async throws {
        let key = P256.Signing.PrivateKey()
        let sealedHere = WopiAccessTokenSeal(keys: try await Self.keySet(key)).seal(Self.claims)
        let there = WopiAccessTokenSeal(keys: try await Self.keySet(P256.Signing.PrivateKey(rawRepresentation: key.rawRepresentation)))
        #expect(try there.open(sealedHere) == Self.claims)
    }

    @Test func aTokenSealedBeforeARotationOpensWhileItsKeyIsKept() async throws {
        let old = P256.Signing.PrivateKey()
        let new = P256.Signing.PrivateKey()
        let token = WopiAccessTokenSeal(keys: try await Self.keySet(old)).seal(Self.claims)
        #expect(try WopiAccessTokenSeal(keys: try await Self.keySet(new, old)).open(token) == Self.claims)
        let withoutTheOldKey = WopiAccessTokenSeal(keys: try await Self.keySet(new))
        #expect(throws: WopiAccessTokenError.unknownKey) { try withoutTheOldKey.open(token) }
    }

    @Test func anAlteredPayloadOrSealIsRefused() async throws {
        let seal = WopiAccessTokenSeal(keys: try await SigningKeySet.generate())
        let token = seal.seal(Self.claims)
        var parts = token.split(separator: ".").map(String.init)
        var other = Self.claims
        other.wopiSource = "https://contoso.com/wopi/files/43"
        let otherPayload = seal.seal(other).split(separator: ".")[2]
        let swapped = [parts[0], parts[1], String(otherPayload), parts[3]].joined(separator: ".")
        #expect(throws: WopiAccessTokenError.badSeal) { try seal.open(swapped) }
        parts[3] = String(parts[3].reversed())
        #expect(throws: WopiAccessTokenError.badSeal) { try seal.open(parts.joined(separator: ".")) }
    }

    @Test(arguments: [
        ("", "format"), ("w1.abc.def", "format"), ("w2.a.b.c", "format"), ("w1.a.b.c.d", "format"),
    ])
    func aStringThatIsNotATokenIsMalformed(token: String, part: String) async throws {
        let seal = WopiAccessTokenSeal(keys: try await SigningKeySet.generate())
        #expect(throws: WopiAccessTokenError.malformed(part: part)) { try seal.open(token) }
    }

    @Test func aSealThatIsNotBase64OrNotAFullMACIsMalformed() async throws {
        let seal = WopiAccessTokenSeal(keys: try await SigningKeySet.generate())
        let parts = seal.seal(Self.claims).split(separator: ".").map(String.init)
        for bad in ["!!!", String(parts[3].dropLast(4))] {
            let token = [parts[0], parts[1], parts[2], bad].joined(separator: ".")
            #expect(throws: WopiAccessTokenError.malformed(part: "seal")) { try seal.open(token) }
        }
    }

    @Test func anOversizedStringIsRefusedBeforeAnyWork() async throws {
        let seal = WopiAccessTokenSeal(keys: try await SigningKeySet.generate())
        let huge = String(repeating: "a", count: WopiAccessTokenSeal.maxBytes + 1)
        #expect(throws: WopiAccessTokenError.tooLong(bytes: WopiAccessTokenSeal.maxBytes + 1, limit: WopiAccessTokenSeal.maxBytes)) {
            try seal.open(huge)
        }
        #expect("\(WopiAccessTokenError.tooLong(bytes: 16385, limit: 16384))" == "WOPI access token is 16385 bytes, over the limit of 16384")
    }
}

@Suite("WOPI access token verifier")
struct WopiAccessTokenVerifierTests {
    @Test func aTokenIsGoodUntilItExpiresAndOnlyForItsFile() async throws {
        let bridge = try await TestBridge.make()
        let issued = try await bridge.issueToken()
        let seal = WopiAccessTokenSeal(keys: try await SigningKeyFile.loadOrCreate(path: bridge.configuration.signingKeys.file).keys)
        let now = bridge.clock.now
        let file = "https://contoso.com/wopi/files/42"
        let token = seal.seal(WopiAccessTokenClaims(grantID: issued.grantID, wopiSource: file, issuedAt: now, expiresAt: now + 60))
        let verifier = bridge.app.wopiAccessTokenVerifier
        #expect(try await verifier.verify(token, for: file, at: now + 59.999).grant.id == issued.grantID)
        await #expect(throws: WopiAccessTokenVerifier.Rejection.expired) { try await verifier.verify(token, for: file, at: now + 60) }
        await #expect(throws: WopiAccessTokenVerifier.Rejection.wrongResource) {
            try await verifier.verify(token, for: "https://contoso.com/wopi/files/420", at: now)
        }
        await #expect(throws: WopiAccessTokenVerifier.Rejection.wrongResource) { try await verifier.verify(token, for: nil, at: now) }
        await #expect(throws: WopiAccessTokenVerifier.Rejection.malformed(.badSeal)) {
            try await verifier.verify(String(token.dropLast(2)) + (token.hasSuffix("AA") ? "BA" : "AA"), for: file, at: now)
        }
        try await bridge.store.close()
    }

    @Test func aRevokedGrantsTokensAreRefusedAtOnceAndAnUnknownGrantsToo() async throws {
        let bridge = try await TestBridge.make()
        let issued = try await bridge.issueToken()
        let seal = WopiAccessTokenSeal(keys: try await SigningKeyFile.loadOrCreate(path: bridge.configuration.signingKeys.file).keys)
        let now = bridge.clock.now
        let token = seal.seal(WopiAccessTokenClaims(grantID: issued.grantID, wopiSource: nil, issuedAt: now, expiresAt: now + 600))
        let verifier = bridge.app.wopiAccessTokenVerifier
        #expect(try await verifier.verify(token, for: nil, at: now).claims.wopiSource == nil)
        // Kept for a moment, but a revocation through this server's store drops what was kept.
        #expect(try await bridge.store.revokeGrant(issued.grantID, at: now))
        await #expect(throws: WopiAccessTokenVerifier.Rejection.revoked) { try await verifier.verify(token, for: nil, at: now) }
        let stranger = seal.seal(WopiAccessTokenClaims(grantID: GrantID("no-such-grant"), wopiSource: nil, issuedAt: now, expiresAt: now + 600))
        await #expect(throws: WopiAccessTokenVerifier.Rejection.unknownGrant) { try await verifier.verify(stranger, for: nil, at: now) }
        try await bridge.store.close()
    }
}
