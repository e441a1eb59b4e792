import Foundation
import Testing

@testable import BridgeServer

/// The step-up `auth_session` of a first-party token response (draft-ietf-oauth-first-party-apps-04 §6.1), sealed so
/// that the app cannot read it (§5.3.1) and the server needs no record of it.
@Suite("Step-up session seal")
struct StepUpSessionSealTests {
    static let session = StepUpSession(
        clientID: "partner-app", userID: "u-42", grantID: "6f1c2a7e-grant", dpopKeyThumbprint: "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I",
        expiresAt: Date(timeIntervalSince1970: 1_900_000_000))

    @Test func opensWhatItSealedAndHidesTheContents() async throws {
        let seal = StepUpSessionSeal(signingKeys: try await SigningKeySet.generate())
        let sealed = try #require(seal.seal(Self.session))
        #expect(sealed.hasPrefix(StepUpSessionSeal.prefix))
        #expect(seal.open(sealed) == Self.session)
        #expect(!sealed.contains("partner-app") && !sealed.contains("u-42"))
        let bare = StepUpSession(clientID: "c", userID: "u", grantID: "g", dpopKeyThumbprint: nil, expiresAt: Self.session.expiresAt)
        #expect(seal.open(try #require(seal.seal(bare))) == bare)
    }

    @Test func refusesAlteredForeignAndOtherValues() async throws {
        let seal = StepUpSessionSeal(signingKeys: try await SigningKeySet.generate())
        let sealed = try #require(seal.seal(Self.session))
        var bytes = Array(sealed.utf8)
        bytes[bytes.count - 10] = bytes[bytes.count - 10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(seal.open(String(decoding: bytes, as: UTF8.self)) == nil)
        let other = StepUpSessionSeal(signingKeys: try await SigningKeySet.generate())
        #expect(other.open(sealed) == nil)
        // A step's auth_session (random base64url) is not a step-up one: the endpoint then asks the store.
        #expect(seal.open("Zm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9v") == nil)
        #expect(seal.open("su1.x.y") == nil)
        #expect(seal.open(StepUpSessionSeal.prefix + String(repeating: "A", count: 5000)) == nil)
    }
}
