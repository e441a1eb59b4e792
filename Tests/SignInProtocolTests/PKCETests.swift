import PropertyBased
import Testing
import SignInProtocol

@Suite struct PKCETests {
    // RFC 7636 Appendix B, verbatim.
    static let appendixBVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let appendixBChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    @Test func rfc7636AppendixBVector() throws {
        let verifier = try PKCE.Verifier(Self.appendixBVerifier)
        let challenge = verifier.challenge(method: .s256)
        #expect(challenge.value == Self.appendixBChallenge)
        #expect(challenge.method == .s256)
        let stored = try PKCE.Challenge(value: Self.appendixBChallenge, method: .s256)
        #expect(PKCE.verify(verifier: Self.appendixBVerifier, against: stored) == .verified(.s256))
    }

    @Test func plainChallengeIsTheVerifierAndAMissingMethodMeansPlain() throws {
        let challenge = try #require(
            try PKCE.Challenge.fromAuthorizationRequest(challenge: Self.appendixBVerifier, method: nil))
        #expect(challenge.method == .plain)
        #expect(PKCE.verify(verifier: Self.appendixBVerifier, against: challenge) == .verified(.plain))
        #expect(try PKCE.Verifier(Self.appendixBVerifier).challenge(method: .plain) == challenge)
    }

    @Test func verifierLengthAndCharacterSet() throws {
        _ = try PKCE.Verifier(String(repeating: "a", count: 43))
        _ = try PKCE.Verifier(String(repeating: "~", count: 128))
        #expect(throws: PKCE.Failure.malformedVerifier("length is 42, must be 43 to 128 (RFC 7636 §4.1)")) {
            try PKCE.Verifier(String(repeating: "a", count: 42))
        }
        #expect(throws: PKCE.Failure.malformedVerifier("length is 129, must be 43 to 128 (RFC 7636 §4.1)")) {
            try PKCE.Verifier(String(repeating: "a", count: 129))
        }
        #expect(throws: PKCE.Failure.malformedVerifier("character at byte 43 is outside A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1)")) {
            try PKCE.Verifier(Self.appendixBVerifier + "+")
        }
    }

    @Test func challengeSyntax() {
        #expect(throws: PKCE.Failure.malformedChallenge("an S256 challenge is 43 base64url characters (RFC 7636 section 4.2)")) {
            try PKCE.Challenge(value: Self.appendixBChallenge + "A", method: .s256)
        }
        #expect(throws: PKCE.Failure.malformedChallenge("an S256 challenge is 43 base64url characters (RFC 7636 section 4.2)")) {
            try PKCE.Challenge(value: String(Self.appendixBChallenge.dropLast()) + "=", method: .s256)
        }
        #expect(throws: PKCE.Failure.malformedChallenge("length is 3, must be 43 to 128 (RFC 7636 §4.1)")) {
            try PKCE.Challenge(value: "abc", method: .plain)
        }
    }

    @Test func authorizationRequestChecks() throws {
        #expect(try PKCE.Challenge.fromAuthorizationRequest(challenge: nil, method: nil) == nil)
        #expect(throws: PKCE.Failure.challengeRequired) {
            try PKCE.Challenge.fromAuthorizationRequest(challenge: nil, method: nil, required: true)
        }
        #expect(throws: PKCE.Failure.methodWithoutChallenge) {
            try PKCE.Challenge.fromAuthorizationRequest(challenge: nil, method: "S256")
        }
        #expect(throws: PKCE.Failure.unsupportedMethod("S512")) {
            try PKCE.Challenge.fromAuthorizationRequest(challenge: Self.appendixBChallenge, method: "S512")
        }
        // A server that follows RFC 9700 §2.1.1 and allows only S256 refuses the implicit plain.
        #expect(throws: PKCE.Failure.unsupportedMethod("plain")) {
            try PKCE.Challenge.fromAuthorizationRequest(challenge: Self.appendixBVerifier, method: nil, allowedMethods: [.s256])
        }
        #expect(PKCE.Failure.challengeRequired.oauthError.code == .invalidRequest)
        #expect(PKCE.Failure.unsupportedMethod("x").oauthError.code == .invalidRequest)
    }

    @Test func tokenEndpointOutcomes() throws {
        let stored = try PKCE.Challenge(value: Self.appendixBChallenge, method: .s256)
        #expect(PKCE.verify(verifier: nil, against: nil) == .notUsed)
        #expect(PKCE.verify(verifier: nil, against: stored) == .rejected(.missingVerifier))
        #expect(PKCE.verify(verifier: Self.appendixBVerifier, against: nil) == .rejected(.verifierWithoutChallenge))
        let other = String(Self.appendixBVerifier.reversed())
        #expect(PKCE.verify(verifier: other, against: stored) == .rejected(.mismatch))
        #expect(PKCE.verify(verifier: "short", against: stored) == .rejected(.malformedVerifier("length is 5, must be 43 to 128 (RFC 7636 §4.1)")))
        for failure in [PKCE.Failure.missingVerifier, .verifierWithoutChallenge, .mismatch, .malformedVerifier("x")] {
            #expect(failure.oauthError.code == .invalidGrant)
        }
    }

    @Test func verifierDescriptionHidesTheSecret() throws {
        let verifier = try PKCE.Verifier(Self.appendixBVerifier)
        #expect(!"\(verifier)".contains(Self.appendixBVerifier))
    }

    @Test func randomVerifiersAreValidAndAnswerTheirOwnChallenge() async {
        await propertyCheck(input: Gen<PKCE.Method?>.element(of: PKCE.Method.allCases).map { $0! }) { method in
            let verifier = PKCE.Verifier.random()
            #expect(verifier.value.count == 43)
            let challenge = verifier.challenge(method: method)
            #expect(PKCE.verify(verifier: verifier.value, against: challenge) == .verified(method))
            #expect((try? PKCE.Challenge(value: challenge.value, method: method)) == challenge)
            #expect(PKCE.verify(verifier: PKCE.Verifier.random().value, against: challenge) == .rejected(.mismatch))
        }
    }
}
