import Crypto

/// The parts of PKCE that compute SHA-256 (swift-crypto; CryptoKit on Apple platforms).
extension PKCE {
    /// Checks a token request's `code_verifier` against the challenge stored with the code (RFC 7636 §4.6).
    ///
    /// - Parameters:
    ///   - verifier: the raw `code_verifier` parameter, nil when absent.
    ///   - challenge: the challenge the code was issued with, nil when it had none.
    public static func verify(verifier: String?, against challenge: Challenge?) -> Verification {
        let verifier = verifier.nonEmpty
        switch (challenge, verifier) {
        case (nil, nil):
            return .notUsed
        case (nil, .some):
            // RFC 9700 §4.8.2: otherwise an attacker can bypass PKCE by downgrading the authorization request.
            return .rejected(.verifierWithoutChallenge)
        case (.some, nil):
            return .rejected(.missingVerifier)
        case (.some(let challenge), .some(let raw)):
            let parsed: Verifier
            do { parsed = try Verifier(raw) } catch { return .rejected(error) }
            return challenge.isAnswered(by: parsed) ? .verified(challenge.method) : .rejected(.mismatch)
        }
    }

    /// Base64url without padding of the SHA-256 (RFC 7636 §4.2, Appendix A).
    public static func s256(_ verifier: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array(verifier.utf8))))
    }
}

extension PKCE.Verifier {
    /// The challenge to send in the authorization request.
    public func challenge(method: PKCE.Method = .s256) -> PKCE.Challenge {
        switch method {
        case .plain: PKCE.Challenge(trustedValue: value, method: .plain)
        case .s256: PKCE.Challenge(trustedValue: PKCE.s256(value), method: .s256)
        }
    }
}

extension PKCE.Challenge {
    /// Whether `verifier` answers this challenge; compares in constant time.
    public func isAnswered(by verifier: PKCE.Verifier) -> Bool {
        let expected = verifier.challenge(method: method).value
        return ConstantTime.equal(expected.utf8, value.utf8)
    }
}
