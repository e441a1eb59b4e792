/// An OAuth 2.0 error as the protocol sends it: an `error` code, an optional human-readable
/// `error_description` and an optional `error_uri`.
///
/// The same value travels in three forms: JSON from the token endpoint (RFC 6749 §5.2), query parameters on a
/// redirect or an Office Back URL (§4.1.2.1), and the attributes of a Bearer challenge (RFC 6750 §3).
public struct OAuthError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: Code
    /// `error_description`: for the developer reading logs, never shown as the only explanation to a user.
    public var errorDescription: String?
    /// `error_uri`: a page about the error.
    public var errorURI: String?

    public init(_ code: Code, description: String? = nil, uri: String? = nil) {
        self.code = code
        self.errorDescription = description
        self.errorURI = uri
    }

    /// The status a server answers with when the error is not delivered by redirect.
    public var httpStatus: Int { code.httpStatus }

    public var description: String {
        var text = code.rawValue
        if let errorDescription { text += ": \(errorDescription)" }
        if let errorURI { text += " (\(errorURI))" }
        return text
    }

    // MARK: Form form (redirects, Office Back URL, Android ResponseUrlQueryParams)

    /// `error`, then `error_description` and `error_uri` when present.
    public var parameters: FormParameters {
        var form = FormParameters()
        form.append("error", code.rawValue)
        form.append("error_description", wireDescription)
        form.append("error_uri", errorURI)
        return form
    }

    /// Reads `error`, `error_description` and `error_uri` from already decoded parameters; other parameters are
    /// ignored (the caller owns them). Returns nil when there is no `error` parameter at all.
    public static func decode(from parameters: FormParameters) throws(OAuthDecodingError) -> OAuthError? {
        try parameters.rejectDuplicates(of: ["error", "error_description", "error_uri"])
        guard let raw = parameters["error"] else { return nil }
        guard let code = Code(validating: raw) else {
            throw .invalidParameter("error", reason: "an error code is one or more printable ASCII characters other than '\"' and '\\' (RFC 6749 section 5.2)")
        }
        return OAuthError(code, description: parameters["error_description"].nonEmpty, uri: parameters["error_uri"].nonEmpty)
    }

    // MARK: Convenience constructors

    public static func invalidRequest(_ description: String? = nil) -> OAuthError { OAuthError(.invalidRequest, description: description) }
    public static func invalidClient(_ description: String? = nil) -> OAuthError { OAuthError(.invalidClient, description: description) }
    public static func invalidGrant(_ description: String? = nil) -> OAuthError { OAuthError(.invalidGrant, description: description) }
    public static func unsupportedGrantType(_ description: String? = nil) -> OAuthError { OAuthError(.unsupportedGrantType, description: description) }
    public static func accessDenied(_ description: String? = nil) -> OAuthError { OAuthError(.accessDenied, description: description) }
}

extension OAuthError {
    /// Every error code this package speaks, each with the HTTP status of a direct answer and its public source (the
    /// way node-oidc-provider's `lib/helpers/errors.js` lists them), plus `other` for codes read from someone else
    /// (RFC 6749 §8.5 extension codes, Vipps' `unknown_error`). Two codes are equal when their wire strings are.
    /// A server built on this package writes only the named cases.
    public enum Code: Sendable, Hashable, CustomStringConvertible {
        // RFC 6749 §4.1.2.1 (authorization endpoint)
        case invalidRequest
        case unauthorizedClient
        case accessDenied
        case unsupportedResponseType
        case invalidScope
        case serverError
        case temporarilyUnavailable
        // RFC 6749 §5.2 (token endpoint), beyond the ones above
        case invalidClient
        case invalidGrant
        case unsupportedGrantType
        // RFC 6750 §3.1 (protected resources)
        case invalidToken
        case insufficientScope
        // RFC 7009 §2.2.1 (revocation)
        case unsupportedTokenType
        // RFC 8693 §2.2.2 (token exchange)
        case invalidTarget
        // OpenID Connect Core §3.1.2.6 (authentication error response)
        case interactionRequired
        case loginRequired
        case consentRequired
        // RFC 9101 §6.2, OpenID Connect Core §3.1.2.6: a `request_uri` that cannot be used (PAR, RFC 9126 §4)
        case invalidRequestURI
        // RFC 8628 §3.5: the device grant's "not yet", which the session broker's polling answers with too.
        case authorizationPending
        case expiredToken
        // RFC 9449 §5 (token endpoint) and §7.1, §8, §9 (resources, nonces)
        case invalidDPoPProof
        case useDPoPNonce
        // draft-ietf-oauth-attestation-based-client-auth-11 §7.4 (client authentication errors, answered 401).
        case invalidClientAttestation
        case useFreshAttestation
        /// Any other code, kept as sent.
        case other(String)

        /// Every named code (not `other`), in the order of the table above.
        public static let registered: [Code] = [
            .invalidRequest, .unauthorizedClient, .accessDenied, .unsupportedResponseType, .invalidScope,
            .serverError, .temporarilyUnavailable, .invalidClient, .invalidGrant, .unsupportedGrantType,
            .invalidToken, .insufficientScope, .unsupportedTokenType, .invalidTarget, .interactionRequired,
            .loginRequired, .consentRequired, .invalidRequestURI, .authorizationPending, .expiredToken, .invalidDPoPProof, .useDPoPNonce,
            .invalidClientAttestation, .useFreshAttestation,
        ]

        /// Maps a wire string to its case; unknown strings become `.other`.
        public init(rawValue: String) {
            self = Code.registered.first { $0.rawValue == rawValue } ?? .other(rawValue)
        }

        /// Like `init(rawValue:)` but nil unless the string is a syntactically valid code: one or more of
        /// %x20-21 / %x23-5B / %x5D-7E (RFC 6749 §5.2), the set `error_description` is held to as well.
        public init?(validating rawValue: String) {
            guard !rawValue.isEmpty, rawValue.utf8.allSatisfy(Code.isAllowedByte) else { return nil }
            self.init(rawValue: rawValue)
        }

        /// The characters RFC 6749 §5.2 and §4.1.2.1 allow in `error` and `error_description`: %x20-21 / %x23-5B /
        /// %x5D-7E (printable ASCII but `"` and `\`).
        public static func isAllowedByte(_ byte: UInt8) -> Bool {
            (0x20...0x7E).contains(byte) && byte != 0x22 && byte != 0x5C
        }

        public var rawValue: String {
            switch self {
            case .invalidRequest: "invalid_request"
            case .unauthorizedClient: "unauthorized_client"
            case .accessDenied: "access_denied"
            case .unsupportedResponseType: "unsupported_response_type"
            case .invalidScope: "invalid_scope"
            case .serverError: "server_error"
            case .temporarilyUnavailable: "temporarily_unavailable"
            case .invalidClient: "invalid_client"
            case .invalidGrant: "invalid_grant"
            case .unsupportedGrantType: "unsupported_grant_type"
            case .invalidToken: "invalid_token"
            case .insufficientScope: "insufficient_scope"
            case .unsupportedTokenType: "unsupported_token_type"
            case .invalidTarget: "invalid_target"
            case .interactionRequired: "interaction_required"
            case .loginRequired: "login_required"
            case .consentRequired: "consent_required"
            case .invalidRequestURI: "invalid_request_uri"
            case .authorizationPending: "authorization_pending"
            case .expiredToken: "expired_token"
            case .invalidDPoPProof: "invalid_dpop_proof"
            case .useDPoPNonce: "use_dpop_nonce"
            case .invalidClientAttestation: "invalid_client_attestation"
            case .useFreshAttestation: "use_fresh_attestation"
            case .other(let raw): raw
            }
        }

        public var description: String { rawValue }

        /// Where the code is defined, for documentation and for tools that explain an error.
        public var source: String {
            switch self {
            case .invalidRequest, .unauthorizedClient, .accessDenied, .unsupportedResponseType, .invalidScope,
                .serverError, .temporarilyUnavailable:
                "RFC 6749 section 4.1.2.1"
            case .invalidClient, .invalidGrant, .unsupportedGrantType: "RFC 6749 section 5.2"
            case .invalidToken, .insufficientScope: "RFC 6750 section 3.1"
            case .unsupportedTokenType: "RFC 7009 section 2.2.1"
            case .invalidTarget: "RFC 8693 section 2.2.2"
            case .interactionRequired, .loginRequired, .consentRequired: "OpenID Connect Core 1.0 section 3.1.2.6"
            case .invalidRequestURI: "RFC 9101 section 6.2"
            case .authorizationPending, .expiredToken: "RFC 8628 section 3.5"
            case .invalidDPoPProof: "RFC 9449 section 5"
            case .useDPoPNonce: "RFC 9449 section 8"
            case .invalidClientAttestation, .useFreshAttestation: "draft-ietf-oauth-attestation-based-client-auth-11 section 7.4"
            case .other: "not defined by this package"
            }
        }

        /// The HTTP status for a direct (non-redirect) answer: RFC 6749 §5.2 (400, `invalid_client` 401),
        /// RFC 6750 §3.1 (`invalid_token` 401, `insufficient_scope` 403), and for the authorization endpoint's
        /// own codes the status that says the same thing (403 denied, 500 server error, 503 unavailable).
        public var httpStatus: Int {
            switch self {
            case .invalidClient, .invalidToken, .invalidClientAttestation, .useFreshAttestation: 401
            case .accessDenied, .insufficientScope: 403
            case .serverError: 500
            case .temporarilyUnavailable: 503
            case .invalidRequest, .unauthorizedClient, .unsupportedResponseType, .invalidScope, .invalidGrant,
                .unsupportedGrantType, .unsupportedTokenType, .invalidTarget, .interactionRequired, .loginRequired,
                .consentRequired, .invalidRequestURI, .authorizationPending, .expiredToken, .invalidDPoPProof, .useDPoPNonce, .other:
                400
            }
        }

        public static func == (lhs: Code, rhs: Code) -> Bool { lhs.rawValue == rhs.rawValue }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    }

    /// `text` within the `error_description` character set (RFC 6749 §5.2, §4.1.2.1): every other character becomes
    /// `?`. Applied wherever an error is written, so no input byte (a NUL, a quote, a line break) can reach the wire.
    public static func wireSafe(_ text: String) -> String {
        if text.utf8.allSatisfy(Code.isAllowedByte) { return text }
        var safe = ""
        for scalar in text.unicodeScalars {
            safe.unicodeScalars.append(scalar.isASCII && Code.isAllowedByte(UInt8(scalar.value)) ? scalar : "?")
        }
        return safe
    }

    /// `error_description` as it goes on the wire (`wireSafe`).
    public var wireDescription: String? { errorDescription.map(Self.wireSafe) }
}

// MARK: JSON form (RFC 6749 §5.2)

extension OAuthError: Codable {
    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
        case errorURI = "error_uri"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let raw = try container.decode(String.self, forKey: .error)
        guard let code = Code(validating: raw) else {
            throw DecodingError.dataCorruptedError(
                forKey: .error, in: container,
                debugDescription: "not a valid error code (RFC 6749 §5.2)")
        }
        self.init(
            code,
            description: try container.decodeIfPresent(String.self, forKey: .errorDescription),
            uri: try container.decodeIfPresent(String.self, forKey: .errorURI))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code.rawValue, forKey: .error)
        try container.encodeIfPresent(wireDescription, forKey: .errorDescription)
        try container.encodeIfPresent(errorURI, forKey: .errorURI)
    }

    /// Decodes the JSON body of an error response, refusing input over `limit`.
    public static func decode(json: some StringProtocol, limit: InputLimit = .default) throws(OAuthDecodingError) -> OAuthError {
        try JSONBody.decode(OAuthError.self, from: json, limit: limit, what: "OAuth error response")
    }

    /// The JSON body of an error response.
    public var json: String { JSONBody.encode(self) }
}

extension Optional where Wrapped == String {
    /// RFC 6749 §3.1: "Parameters sent without a value MUST be treated as if they were omitted."
    public var nonEmpty: String? {
        switch self {
        case .some(let value) where !value.isEmpty: value
        default: nil
        }
    }
}
