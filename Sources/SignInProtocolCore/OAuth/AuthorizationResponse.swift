/// What the authorization endpoint sends back by redirect (RFC 6749 §4.1.2): a code, or an error, with the
/// client's `state` echoed. Office adds `tk` (a token endpoint for this grant) and `sc` (a session context).
///
/// Empty values count as absent (RFC 6749 §3.1): the Office docs' `state=` decodes to no state.
public struct AuthorizationResponse: Sendable, Hashable {
    /// The success parameters.
    public struct Success: Sendable, Hashable {
        public var code: String
        /// Granted scope, when it differs from the requested one (RFC 6749 §3.3).
        public var scope: String?
        /// Office `tk`: a token endpoint URL that replaces `tokenIssuance_uri` for this grant (Microsoft's app-to-app docs).
        public var tokenEndpoint: String?
        /// Office `sc`: an opaque session context Office echoes in `X-WOPI-SessionContext` (Microsoft's app-to-app docs).
        public var sessionContext: String?

        public init(code: String, scope: String? = nil, tokenEndpoint: String? = nil, sessionContext: String? = nil) {
            self.code = code
            self.scope = scope
            self.tokenEndpoint = tokenEndpoint
            self.sessionContext = sessionContext
        }
    }

    public enum Outcome: Sendable, Hashable {
        case success(Success)
        case failure(OAuthError)
    }

    public var outcome: Outcome
    public var state: String?
    /// Other parameters (for example RFC 9207 `iss`), in order.
    public var additionalParameters: FormParameters

    public init(_ outcome: Outcome, state: String? = nil, additionalParameters: FormParameters = FormParameters()) {
        self.outcome = outcome
        self.state = state
        self.additionalParameters = additionalParameters
    }

    public static func success(
        code: String, state: String? = nil, scope: String? = nil, tokenEndpoint: String? = nil,
        sessionContext: String? = nil
    ) -> AuthorizationResponse {
        AuthorizationResponse(
            .success(Success(code: code, scope: scope, tokenEndpoint: tokenEndpoint, sessionContext: sessionContext)),
            state: state)
    }

    public static func failure(_ error: OAuthError, state: String? = nil) -> AuthorizationResponse {
        AuthorizationResponse(.failure(error), state: state)
    }

    /// The response with RFC 9207's `iss` (§2): the authorization server's issuer identifier, on success and error
    /// responses alike, so a client that talks to several servers can tell which one answered (mix-up attacks,
    /// RFC 9700 §4.4). Replaces an `iss` already there.
    public func issued(by issuer: String) -> AuthorizationResponse {
        var response = self
        response.additionalParameters.removeAll(named: "iss")
        response.additionalParameters.append("iss", issuer)
        return response
    }

    /// RFC 9207 `iss`, when the server sent one.
    public var issuer: String? { additionalParameters["iss"] }

    public var code: String? {
        if case .success(let success) = outcome { success.code } else { nil }
    }

    public var error: OAuthError? {
        if case .failure(let error) = outcome { error } else { nil }
    }

    static let successNames = ["code", "state", "scope", "tk", "sc"]
    static let errorNames = ["error", "error_description", "error_uri"]

    // MARK: Encoding

    /// Success: `state`, `code`, `scope`, `tk`, `sc` (the order of the Office and Vipps examples); failure:
    /// `error`, `error_description`, `error_uri`, `state` (the order of RFC 6749 §4.1.2.1). Then the others.
    public var parameters: FormParameters {
        var form = FormParameters()
        switch outcome {
        case .success(let success):
            form.append("state", state.nonEmpty)
            form.append("code", success.code)
            form.append("scope", success.scope.nonEmpty)
            form.append("tk", success.tokenEndpoint.nonEmpty)
            form.append("sc", success.sessionContext.nonEmpty)
        case .failure(let error):
            form.append(contentsOf: error.parameters)
            form.append("state", state.nonEmpty)
        }
        form.append(contentsOf: additionalParameters)
        return form
    }

    /// The redirect target: `redirectURI` with the parameters added to its query, keeping any query it
    /// already has (RFC 6749 §3.1.2). Only call this with a URI `RedirectURIPolicy.resolve` accepted.
    public func redirectURL(to redirectURI: String) -> String {
        URIComponents.appending(parameters, to: redirectURI)
    }

    // MARK: Decoding

    /// Parses the redirect the client received, e.g. `https://localhost?state=&code=abcdefg&tk=…`.
    /// Only the query is read; the parameters of the redirect URI itself end up in `additionalParameters`.
    public static func decode(redirectURL: String, limit: InputLimit = .default) throws(OAuthDecodingError) -> AuthorizationResponse {
        do { try limit.check(redirectURL, what: "redirect URL") } catch { throw .tooLarge(error) }
        let parts = URIComponents(redirectURL)
        guard let query = parts.query else { throw .missingParameter("code") }
        let offset = redirectURL.utf8.distance(from: redirectURL.utf8.startIndex, to: query.startIndex)
        return try decode(
            FormParameters.decodeForOAuth(query, limit: limit, baseOffset: offset, what: "authorization response"))
    }

    /// Parses the query of a redirect (`code=…&state=…`).
    public static func decode(query: some StringProtocol, limit: InputLimit = .default) throws(OAuthDecodingError) -> AuthorizationResponse {
        try decode(FormParameters.decodeForOAuth(query, limit: limit, what: "authorization response"))
    }

    /// Interprets decoded parameters: `error` makes it a failure, otherwise `code` is required. Both at once is
    /// refused, as is any defined parameter sent twice (RFC 6749 §3.1).
    public static func decode(_ parameters: FormParameters) throws(OAuthDecodingError) -> AuthorizationResponse {
        try parameters.rejectDuplicates(of: successNames + errorNames)
        let state = parameters["state"].nonEmpty
        if let error = try OAuthError.decode(from: parameters) {
            if parameters["code"].nonEmpty != nil {
                throw .invalidParameter("code", reason: "a response carries either code or error, not both")
            }
            let known = Set(errorNames + ["state"])
            return AuthorizationResponse(.failure(error), state: state, additionalParameters: parameters.excluding(known))
        }
        let success = Success(
            code: try parameters.required("code"),
            scope: parameters["scope"].nonEmpty,
            tokenEndpoint: parameters["tk"].nonEmpty,
            sessionContext: parameters["sc"].nonEmpty)
        let known = Set(successNames + errorNames)
        return AuthorizationResponse(.success(success), state: state, additionalParameters: parameters.excluding(known))
    }
}

// MARK: JSON form (the CLI prints this)

extension AuthorizationResponse: Codable {
    enum CodingKeys: String, CodingKey {
        case code, state, scope, tk, sc, error, errorDescription = "error_description", errorURI = "error_uri"
        case additionalParameters = "additional_parameters"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let state = try container.decodeIfPresent(String.self, forKey: .state)
        let extra = try container.decodeIfPresent(NamedValues.self, forKey: .additionalParameters)?.form ?? FormParameters()
        if container.contains(.error) {
            self.init(.failure(try OAuthError(from: decoder)), state: state, additionalParameters: extra)
        } else {
            let success = Success(
                code: try container.decode(String.self, forKey: .code),
                scope: try container.decodeIfPresent(String.self, forKey: .scope),
                tokenEndpoint: try container.decodeIfPresent(String.self, forKey: .tk),
                sessionContext: try container.decodeIfPresent(String.self, forKey: .sc))
            self.init(.success(success), state: state, additionalParameters: extra)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch outcome {
        case .success(let success):
            try container.encode(success.code, forKey: .code)
            try container.encodeIfPresent(success.scope, forKey: .scope)
            try container.encodeIfPresent(success.tokenEndpoint, forKey: .tk)
            try container.encodeIfPresent(success.sessionContext, forKey: .sc)
        case .failure(let error):
            try error.encode(to: encoder)
        }
        try container.encodeIfPresent(state, forKey: .state)
        if !additionalParameters.isEmpty {
            try container.encode(NamedValues(additionalParameters), forKey: .additionalParameters)
        }
    }
}
