import Foundation

/// Proof Key for Code Exchange (RFC 7636): the client proves at the token endpoint that it is the one that
/// started the authorization, so a stolen code alone is useless.
public enum PKCE {
    /// `code_challenge_method` (RFC 7636 §4.3). A request without one means `plain`.
    public enum Method: String, Sendable, Hashable, Codable, CaseIterable {
        /// `BASE64URL(SHA256(ASCII(code_verifier)))`: the method to use (RFC 9700 §2.1.1).
        case s256 = "S256"
        /// The challenge is the verifier itself; only for clients that cannot compute SHA-256.
        case plain
    }

    /// A `code_verifier`: 43 to 128 characters of `A-Z a-z 0-9 - . _ ~` (RFC 7636 §4.1).
    public struct Verifier: Sendable, Hashable, Codable, CustomStringConvertible {
        public let value: String

        /// Checks the syntax of RFC 7636 §4.1.
        public init(_ value: String) throws(PKCE.Failure) {
            if let problem = PKCE.syntaxProblem(value) { throw .malformedVerifier(problem) }
            self.value = value
        }

        /// 32 random bytes, base64url-encoded: 43 characters, the encoding RFC 7636 §4.1 recommends.
        public static func random() -> Verifier {
            var generator = SystemRandomNumberGenerator()
            return random(using: &generator)
        }

        public static func random(using generator: inout some RandomNumberGenerator) -> Verifier {
            let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            // Cannot fail: base64url of 32 bytes is 43 unreserved characters.
            return try! Verifier(Base64URL.encode(bytes))
        }

        /// Never prints the secret.
        public var description: String { "PKCE.Verifier(\(value.count) characters)" }

        public init(from decoder: any Decoder) throws {
            let raw = try decoder.singleValueContainer().decode(String.self)
            do { try self.init(raw) } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    /// A `code_challenge` with its method, as the server stores it with the code it issues.
    public struct Challenge: Sendable, Hashable, Codable {
        public let value: String
        public let method: Method

        /// Checks the challenge syntax: for `S256` exactly 43 base64url characters (a SHA-256 digest), for
        /// `plain` the verifier syntax.
        public init(value: String, method: Method) throws(PKCE.Failure) {
            switch method {
            case .plain:
                if let problem = PKCE.syntaxProblem(value) { throw .malformedChallenge(problem) }
            case .s256:
                guard value.utf8.count == 43, value.utf8.allSatisfy(PKCE.isBase64URLByte) else {
                    throw .malformedChallenge("an S256 challenge is 43 base64url characters (RFC 7636 section 4.2)")
                }
            }
            self.value = value
            self.method = method
        }

        package init(trustedValue: String, method: Method) {
            self.value = trustedValue
            self.method = method
        }

        /// Reads `code_challenge` and `code_challenge_method` from an authorization request (RFC 7636 §4.3).
        /// A missing method means `plain` (§4.3); nil when there is no challenge at all.
        ///
        /// - Parameters:
        ///   - required: true when the server demands PKCE (RFC 9700 §2.1.1 wants it for every public client).
        ///   - allowedMethods: methods the server accepts; RFC 9700 §2.1.1 recommends `[.s256]`.
        public static func fromAuthorizationRequest(
            challenge: String?, method: String?, required: Bool = false,
            allowedMethods: Set<Method> = [.s256, .plain]
        ) throws(PKCE.Failure) -> Challenge? {
            guard let challenge, !challenge.isEmpty else {
                if let method, !method.isEmpty { throw .methodWithoutChallenge }
                if required { throw .challengeRequired }
                return nil
            }
            let rawMethod = method.nonEmpty ?? Method.plain.rawValue
            guard let parsed = Method(rawValue: rawMethod), allowedMethods.contains(parsed) else {
                throw .unsupportedMethod(rawMethod)
            }
            return try Challenge(value: challenge, method: parsed)
        }
    }

    /// What the token endpoint concluded about PKCE for one code redemption.
    public enum Verification: Sendable, Hashable {
        /// The code was issued with a challenge and the verifier answers it.
        case verified(Method)
        /// The code was issued without a challenge and no verifier was sent.
        case notUsed
        /// The redemption must be refused; `failure.oauthError` is the answer.
        case rejected(Failure)
    }

    /// Why PKCE refused a request.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The server requires PKCE and the authorization request has no `code_challenge` (RFC 7636 §4.4.1).
        case challengeRequired
        /// `code_challenge_method` without `code_challenge`.
        case methodWithoutChallenge
        /// `code_challenge_method` is not one the server accepts.
        case unsupportedMethod(String)
        case malformedChallenge(String)
        case malformedVerifier(String)
        /// The code was issued with a challenge and the token request has no `code_verifier`.
        case missingVerifier
        /// A `code_verifier` for a code issued without a challenge (RFC 9700 §4.8.2).
        case verifierWithoutChallenge
        /// The verifier does not answer the challenge (RFC 7636 §4.6).
        case mismatch

        /// Authorization-request problems are `invalid_request` (RFC 7636 §4.4.1); a redemption whose proof is
        /// absent, malformed or wrong means the code is not usable by this caller: `invalid_grant` (§4.6).
        public var oauthError: OAuthError {
            switch self {
            case .challengeRequired, .methodWithoutChallenge, .unsupportedMethod, .malformedChallenge:
                OAuthError(.invalidRequest, description: description)
            case .malformedVerifier, .missingVerifier, .verifierWithoutChallenge, .mismatch:
                OAuthError(.invalidGrant, description: description)
            }
        }

        public var description: String {
            switch self {
            case .challengeRequired: "code_challenge is required (PKCE, RFC 7636)"
            case .methodWithoutChallenge: "code_challenge_method sent without code_challenge"
            case .unsupportedMethod: "code_challenge_method is not supported; use S256"
            case .malformedChallenge(let why): "code_challenge is malformed: \(why)"
            case .malformedVerifier(let why): "code_verifier is malformed: \(why)"
            case .missingVerifier: "code_verifier is required for this code"
            case .verifierWithoutChallenge: "code_verifier sent for a code issued without code_challenge"
            case .mismatch: "code_verifier does not match code_challenge"
            }
        }
    }

    // MARK: Internals

    package static func syntaxProblem(_ value: String) -> String? {
        let count = value.utf8.count
        guard (43...128).contains(count) else { return "length is \(count), must be 43 to 128 (RFC 7636 §4.1)" }
        if let index = value.utf8.firstIndex(where: { !PercentEncoding.isUnreserved($0) }) {
            let offset = value.utf8.distance(from: value.utf8.startIndex, to: index)
            return "character at byte \(offset) is outside A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1)"
        }
        return nil
    }

    static func isBase64URLByte(_ byte: UInt8) -> Bool {
        PercentEncoding.isUnreserved(byte) && byte != UInt8(ascii: ".") && byte != UInt8(ascii: "~")
    }
}
