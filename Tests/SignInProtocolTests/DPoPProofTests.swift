import Testing
@testable import SignInProtocol
@testable import SignInProtocolCore

@Suite struct DPoPProofTests {
    /// RFC 9449 §4.1, Figure 2 (its key's thumbprint is in §6.1, Figure 9).
    static let rfcProof =
        "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjYyNjE2fQ.2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37xRZT3Lg"

    @Test func theRFCExampleProofDecodes() throws {
        let proof = try DPoPProof(parsing: Self.rfcProof)
        #expect(proof.header.type == "dpop+jwt")
        #expect(proof.header.algorithm == "ES256")
        #expect(proof.header.key["crv"] == .string("P-256"))
        #expect(proof.claims.id == "-BwC3ESc6acc2lTc")
        #expect(proof.claims.method == "POST")
        #expect(proof.claims.targetURI == "https://server.example.com/token")
        #expect(proof.claims.issuedAt == 1_562_262_616)
        #expect(proof.claims.accessTokenHash == nil)
        #expect(proof.claims.nonce == nil)
        #expect(proof.signature.count == 64)
        #expect(String(decoding: proof.signingInput, as: UTF8.self) == Self.rfcProof.split(separator: ".").prefix(2).joined(separator: "."))
    }

    @Test func theRFCExampleKeyHasTheRFCThumbprint() throws {
        let proof = try DPoPProof(parsing: Self.rfcProof)
        // RFC 9449 §6.1, Figure 9.
        #expect(try JWKThumbprint.sha256(of: proof.header.key) == "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
    }

    @Test func theRFC7638ExampleThumbprint() throws {
        // RFC 7638 §3.1: optional members (alg, kid) do not change the thumbprint.
        let key: [String: JSONValue] = [
            "kty": .string("RSA"), "e": .string("AQAB"), "alg": .string("RS256"), "kid": .string("2011-04-29"),
            "n": .string("0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"),
        ]
        #expect(try JWKThumbprint.sha256(of: key) == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
        // The same canonical form from the members alone, as the signing keys' `kid` is made.
        guard case .string(let modulus)? = key["n"] else { Issue.record("no n"); return }
        #expect(JWKThumbprint.sha256(rsaModulus: modulus, exponent: "AQAB") == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
        // RFC 9449 §6.1, Figure 9: the EC key of the RFC's proof.
        #expect(JWKThumbprint.sha256(p256X: "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs", y: "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA")
            == "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
        #expect(throws: DPoPProofError.self) { try JWKThumbprint.sha256(of: ["kty": .string("RSA"), "e": .string("AQAB")]) }
        #expect(throws: DPoPProofError.self) { try JWKThumbprint.sha256(of: ["kty": .string("oct"), "k": .string("AAAA")]) }
    }

    @Test(arguments: [
        ("", DPoPProofError.notCompactJWS),
        ("a.b", .notCompactJWS),
        ("a.b.c.d", .notCompactJWS),
        ("..sig", .notCompactJWS),
        ("!!.e30.AA", .malformed(part: "header")),
        ("WzFd.e30.AA", .malformed(part: "header")),  // [1]: not an object
        ("e30.e30.AA", .missing(member: "typ")),
    ])
    func brokenProofsNameWhatIsWrong(text: String, expected: DPoPProofError) {
        #expect(throws: expected) { try DPoPProof(parsing: text) }
    }

    @Test func eachRequiredMemberIsNamedWhenMissingOrMistyped() {
        func proof(header: String, payload: String) -> String {
            Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + ".AA"
        }
        let header = #"{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC"}}"#
        let claims = #"{"jti":"j","htm":"POST","htu":"https://a.example/t","iat":1}"#
        #expect(throws: Never.self) { try DPoPProof(parsing: proof(header: header, payload: claims)) }
        #expect(throws: DPoPProofError.missing(member: "jwk")) {
            try DPoPProof(parsing: proof(header: #"{"typ":"dpop+jwt","alg":"ES256"}"#, payload: claims))
        }
        #expect(throws: DPoPProofError.invalid(member: "jwk", reason: "is not a JSON object")) {
            try DPoPProof(parsing: proof(header: #"{"typ":"dpop+jwt","alg":"ES256","jwk":"k"}"#, payload: claims))
        }
        for member in ["jti", "htm", "htu", "iat"] {
            let without = claims.replacingOccurrences(of: "\"\(member)\":", with: "\"x\(member)\":")
            #expect(throws: DPoPProofError.missing(member: member)) { try DPoPProof(parsing: proof(header: header, payload: without)) }
        }
        #expect(throws: DPoPProofError.invalid(member: "iat", reason: "is not a number of seconds")) {
            try DPoPProof(parsing: proof(header: header, payload: #"{"jti":"j","htm":"POST","htu":"h","iat":"1"}"#))
        }
        #expect(throws: DPoPProofError.invalid(member: "ath", reason: "is not a non-empty string")) {
            try DPoPProof(parsing: proof(header: header, payload: #"{"jti":"j","htm":"POST","htu":"h","iat":1,"ath":5}"#))
        }
    }

    @Test func aProofOverTheLimitIsRefusedBeforeDecoding() {
        let text = String(repeating: "A", count: DPoPProof.defaultLimit.maxBytes + 1)
        #expect(throws: DPoPProofError.self) { try DPoPProof(parsing: text) }
        do {
            _ = try DPoPProof(parsing: text)
        } catch {
            guard case .tooLarge = error else { Issue.record("expected tooLarge, got \(error)"); return }
        }
    }

    @Test func errorDescriptionsAreWireSafeAndUseTheDPoPCode() {
        let errors: [DPoPProofError] = [
            .notCompactJWS, .malformed(part: "header"), .missing(member: "jti"),
            .invalid(member: "htu", reason: "is not the URI the request was sent to (RFC 9449 section 4.3)"),
        ]
        for error in errors {
            #expect(error.oauthError.code == .invalidDPoPProof)
            #expect(error.oauthError.errorDescription?.utf8.allSatisfy(OAuthError.Code.isAllowedByte) == true, "\(error)")
        }
    }
}

@Suite struct DPoPTargetURITests {
    @Test(arguments: [
        ("https://server.example.com/token", "https://server.example.com/token"),
        ("HTTPS://Server.Example.COM:443/token", "https://server.example.com/token"),
        ("https://server.example.com/token?x=1#f", "https://server.example.com/token"),
        ("https://server.example.com", "https://server.example.com/"),
        ("http://127.0.0.1:80/a/./b/../c", "http://127.0.0.1/a/c"),
        ("http://127.0.0.1:8080/%7euser/%2f", "http://127.0.0.1:8080/~user/%2F"),
        ("https://[::1]:8443/t", "https://[::1]:8443/t"),
    ])
    func normalisesAsRFC3986Section6Says(uri: String, expected: String) {
        #expect(DPoPTargetURI.normalized(uri) == expected)
    }

    @Test(arguments: ["/token", "urn:x:y", "ftp://a.example/t", "https://u@a.example/t", "https://a.example:99999/t",
                      "https://a.example:8x/t", "https://a.example/%zz", "https:///t"])
    func refusesWhatIsNotAnAbsoluteHTTPURI(uri: String) {
        #expect(DPoPTargetURI.normalized(uri) == nil)
    }

    @Test func matchesIgnoresQueryButNotPathOrPort() {
        #expect(DPoPTargetURI.matches(proof: "https://a.example/t", request: "https://a.example/t?code=1"))
        #expect(!DPoPTargetURI.matches(proof: "https://a.example/t", request: "https://a.example/u"))
        #expect(!DPoPTargetURI.matches(proof: "https://a.example:8443/t", request: "https://a.example/t"))
        #expect(!DPoPTargetURI.matches(proof: "http://a.example/t", request: "https://a.example/t"))
    }
}
