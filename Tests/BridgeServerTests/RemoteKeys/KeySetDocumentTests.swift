import Testing

@testable import BridgeServer

/// A fetched JWKS (RFC 7517 §5) is taken only when it is a set of public signing keys: garbage and key sets that
/// offer `alg: none` or a symmetric key are refused whole (RFC 8725 §3.1), each with its reason.
@Suite struct KeySetDocumentTests {
    @Test func aProvidersKeySetIsRead() async throws {
        let keys = try await SigningKeySet.generate()
        let document = try await KeySetDocument.read(Array(keys.jwksJSON.utf8))
        #expect(document.kids.contains(keys.signingKey.kid))
    }

    /// Encryption keys (`use: enc`, RFC 7517 §4.2) and key types we cannot use are left out, not refused.
    @Test func encryptionKeysAndUnknownKeyTypesAreLeftOut() async throws {
        let keys = try await SigningKeySet.generate()
        let jwks = keys.jwksJSON
        let extra = #"{"kty":"RSA","use":"enc","kid":"enc-1","n":"AQAB","e":"AQAB"},{"kty":"XYZ","kid":"odd"},"#
        let mixed = jwks.replacingOccurrences(of: #"{"keys":["#, with: #"{"keys":["# + extra)
        #expect(mixed != jwks)
        let document = try await KeySetDocument.read(Array(mixed.utf8))
        #expect(document.kids.contains(keys.signingKey.kid) && !document.kids.contains("enc-1") && !document.kids.contains("odd"))
    }

    @Test func garbageIsRefusedWithItsReason() async {
        let cases: [(String, KeySetDocument.Refusal)] = [
            ("<html><body>Sign in</body></html>", .notJSON),
            (#"{"keys":"none"}"#, .notAKeySet),
            (#"[1,2]"#, .notAKeySet),
            (#"{"keys":[]}"#, .noUsableKey),
            (#"{"keys":[{"kty":"EC","crv":"P-256","x":"AQ","y":"AQ"}]}"#, .noUsableKey),
            (#"{"keys":[{"kty":"oct","kid":"s","k":"c2VjcmV0"}]}"#, .unsafeKey(kid: "s", reason: "that is symmetric (kty oct)")),
            (#"{"keys":[{"kty":"RSA","kid":"n","alg":"none","n":"AQAB","e":"AQAB"}]}"#, .unsafeKey(kid: "n", reason: "with alg none")),
            (#"{"keys":[{"kty":"RSA","kid":"h","alg":"HS256","n":"AQAB","e":"AQAB"}]}"#,
             .unsafeKey(kid: "h", reason: "for HS256, a symmetric algorithm")),
        ]
        for (body, refusal) in cases {
            await #expect(throws: refusal, "\(body)") { try await KeySetDocument.read(Array(body.utf8)) }
        }
    }

    @Test func anOversizedKeySetIsRefusedBeforeItIsParsed() async {
        let body = [UInt8](repeating: UInt8(ascii: " "), count: KeySetDocument.limit + 1)
        await #expect(throws: KeySetDocument.Refusal.tooLarge(KeySetDocument.limit + 1)) { try await KeySetDocument.read(body) }
    }
}
