/// An OAuth 2.0 authorization request (RFC 6749 §4.1.1) as a client sends it to the authorization endpoint,
/// with the extensions the Office, Vipps and SPiD docs use: PKCE (RFC 7636), OpenID Connect `nonce`, Office's `rs`/`build`/`platform`
/// and Vipps' `requested_flow`/`app_callback_uri`.
///
/// Empty values count as absent (RFC 6749 §3.1). Parameters this type does not know are kept, in order, in
/// `additionalParameters` (for example Office's `app` and `action` in a To URL).
public struct AuthorizationRequest: Sendable, Hashable {
    public var clientID: String
    /// `response_type`, kept as sent (`code` for every flow here; servers refuse others).
    public var responseType: String
    public var redirectURI: String?
    /// Space-separated scope tokens, as sent (Office sends `wopi` or nothing).
    public var scope: String?
    public var state: String?
    /// OpenID Connect `nonce`.
    public var nonce: String?
    public var codeChallenge: String?
    /// `code_challenge_method` as sent; `PKCE.Challenge.fromAuthorizationRequest` interprets it.
    public var codeChallengeMethod: String?
    /// Office `rs`: the UI culture, `en-US` or `enUS`.
    public var culture: String?
    /// Office `build`, e.g. `16.1.1234`.
    public var build: String?
    /// Office `platform`: `iOS`, `android`, …
    public var platform: String?
    /// Vipps `requested_flow` (`app_to_app`).
    public var requestedFlow: String?
    /// Vipps `app_callback_uri`: where the provider's app sends the user back.
    public var appCallbackURI: String?
    /// Every other parameter, in order, duplicates included.
    public var additionalParameters: FormParameters

    public init(
        clientID: String,
        responseType: String = "code",
        redirectURI: String? = nil,
        scope: String? = nil,
        state: String? = nil,
        nonce: String? = nil,
        codeChallenge: String? = nil,
        codeChallengeMethod: String? = nil,
        culture: String? = nil,
        build: String? = nil,
        platform: String? = nil,
        requestedFlow: String? = nil,
        appCallbackURI: String? = nil,
        additionalParameters: FormParameters = FormParameters()
    ) {
        self.clientID = clientID
        self.responseType = responseType
        self.redirectURI = redirectURI
        self.scope = scope
        self.state = state
        self.nonce = nonce
        self.codeChallenge = codeChallenge
        self.codeChallengeMethod = codeChallengeMethod
        self.culture = culture
        self.build = build
        self.platform = platform
        self.requestedFlow = requestedFlow
        self.appCallbackURI = appCallbackURI
        self.additionalParameters = additionalParameters
    }

    /// Sets `code_challenge` and `code_challenge_method` from a challenge.
    public mutating func setPKCE(_ challenge: PKCE.Challenge) {
        codeChallenge = challenge.value
        codeChallengeMethod = challenge.method.rawValue
    }

    /// The scope tokens, split on spaces (RFC 6749 §3.3).
    public var scopes: [String] { scope?.split(separator: " ").map(String.init) ?? [] }

    // MARK: Wire names

    static let exactNames = [
        "client_id", "response_type", "redirect_uri", "scope", "state", "nonce", "code_challenge",
        "code_challenge_method", "requested_flow", "app_callback_uri",
    ]
    /// Office sends these with varying case (`Build`, `Platform`).
    static let officeNames = ["rs", "build", "platform"]

    // MARK: Decoding

    /// Decodes the query of an authorization request (`client_id=…&…`, without the `?`).
    public static func decode(query: some StringProtocol, limit: InputLimit = .default) throws(OAuthDecodingError) -> AuthorizationRequest {
        try decode(FormParameters.decodeForOAuth(query, limit: limit, what: "authorization request"))
    }

    /// Decodes the query of a whole authorization URL (`https://…/authorize?client_id=…`).
    public static func decode(url: String, limit: InputLimit = .default) throws(OAuthDecodingError) -> AuthorizationRequest {
        do { try limit.check(url, what: "authorization request URL") } catch { throw .tooLarge(error) }
        let parts = URIComponents(url)
        guard let query = parts.query else { throw .missingParameter("client_id") }
        let offset = url.utf8.distance(from: url.utf8.startIndex, to: query.startIndex)
        return try decode(
            FormParameters.decodeForOAuth(query, limit: limit, baseOffset: offset, what: "authorization request"))
    }

    /// Interprets decoded parameters. Throws `duplicateParameter` for any defined parameter sent twice
    /// (RFC 6749 §3.1) and `missingParameter` for an absent `client_id` or `response_type`.
    public static func decode(_ parameters: FormParameters) throws(OAuthDecodingError) -> AuthorizationRequest {
        try parameters.rejectDuplicates(of: exactNames)
        try parameters.rejectCaseInsensitiveDuplicates(of: officeNames)
        let known = Set(exactNames)
        var additional = FormParameters()
        for pair in parameters.pairs
        where !known.contains(pair.name) && !officeNames.contains(pair.name.asciiLowercased()) {
            additional.append(pair.name, pair.value)
        }
        return AuthorizationRequest(
            clientID: try parameters.required("client_id"),
            responseType: try parameters.required("response_type"),
            redirectURI: parameters["redirect_uri"].nonEmpty,
            scope: parameters["scope"].nonEmpty,
            state: parameters["state"].nonEmpty,
            nonce: parameters["nonce"].nonEmpty,
            codeChallenge: parameters["code_challenge"].nonEmpty,
            codeChallengeMethod: parameters["code_challenge_method"].nonEmpty,
            culture: parameters.value(forCaseInsensitive: "rs").nonEmpty,
            build: parameters.value(forCaseInsensitive: "build").nonEmpty,
            platform: parameters.value(forCaseInsensitive: "platform").nonEmpty,
            requestedFlow: parameters["requested_flow"].nonEmpty,
            appCallbackURI: parameters["app_callback_uri"].nonEmpty,
            additionalParameters: additional)
    }

    // MARK: Encoding

    /// The parameters in a stable order (the order of RFC 6749 §4.1.1, then the extensions), empty optional
    /// values omitted, additional parameters last.
    public var parameters: FormParameters {
        var form = FormParameters()
        form.append("client_id", clientID)
        form.append("response_type", responseType)
        form.append("redirect_uri", redirectURI.nonEmpty)
        form.append("scope", scope.nonEmpty)
        form.append("state", state.nonEmpty)
        form.append("nonce", nonce.nonEmpty)
        form.append("code_challenge", codeChallenge.nonEmpty)
        form.append("code_challenge_method", codeChallengeMethod.nonEmpty)
        form.append("rs", culture.nonEmpty)
        form.append("build", build.nonEmpty)
        form.append("platform", platform.nonEmpty)
        form.append("requested_flow", requestedFlow.nonEmpty)
        form.append("app_callback_uri", appCallbackURI.nonEmpty)
        form.append(contentsOf: additionalParameters)
        return form
    }

    /// `client_id=…&response_type=…&…`, every value percent-encoded.
    public var query: String { parameters.encoded }

    /// The full URL: `authorizationEndpoint` with the parameters appended to any query it already has.
    public func url(authorizationEndpoint: String) -> String {
        URIComponents.appending(parameters, to: authorizationEndpoint)
    }
}

// MARK: JSON form (for storage and the CLI: the wire names as keys)

extension AuthorizationRequest: Codable {
    enum CodingKeys: String, CodingKey {
        case clientID = "client_id", responseType = "response_type", redirectURI = "redirect_uri", scope, state,
            nonce, codeChallenge = "code_challenge", codeChallengeMethod = "code_challenge_method",
            culture = "rs", build, platform, requestedFlow = "requested_flow", appCallbackURI = "app_callback_uri",
            additionalParameters = "additional_parameters"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func optional(_ key: CodingKeys) throws -> String? { try container.decodeIfPresent(String.self, forKey: key) }
        self.init(
            clientID: try container.decode(String.self, forKey: .clientID),
            responseType: try container.decode(String.self, forKey: .responseType),
            redirectURI: try optional(.redirectURI), scope: try optional(.scope), state: try optional(.state),
            nonce: try optional(.nonce), codeChallenge: try optional(.codeChallenge),
            codeChallengeMethod: try optional(.codeChallengeMethod), culture: try optional(.culture),
            build: try optional(.build), platform: try optional(.platform),
            requestedFlow: try optional(.requestedFlow), appCallbackURI: try optional(.appCallbackURI),
            additionalParameters: try container.decodeIfPresent(NamedValues.self, forKey: .additionalParameters)?.form
                ?? FormParameters())
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(clientID, forKey: .clientID)
        try container.encode(responseType, forKey: .responseType)
        try container.encodeIfPresent(redirectURI, forKey: .redirectURI)
        try container.encodeIfPresent(scope, forKey: .scope)
        try container.encodeIfPresent(state, forKey: .state)
        try container.encodeIfPresent(nonce, forKey: .nonce)
        try container.encodeIfPresent(codeChallenge, forKey: .codeChallenge)
        try container.encodeIfPresent(codeChallengeMethod, forKey: .codeChallengeMethod)
        try container.encodeIfPresent(culture, forKey: .culture)
        try container.encodeIfPresent(build, forKey: .build)
        try container.encodeIfPresent(platform, forKey: .platform)
        try container.encodeIfPresent(requestedFlow, forKey: .requestedFlow)
        try container.encodeIfPresent(appCallbackURI, forKey: .appCallbackURI)
        if !additionalParameters.isEmpty {
            try container.encode(NamedValues(additionalParameters), forKey: .additionalParameters)
        }
    }
}

/// Ordered parameters as a JSON array of `{"name": …, "value": …}` objects: a JSON object could not keep
/// their order or a repeated name.
struct NamedValues: Codable, Hashable {
    struct Entry: Codable, Hashable {
        var name: String
        var value: String
    }

    var entries: [Entry]

    init(_ form: FormParameters) { entries = form.pairs.map { Entry(name: $0.name, value: $0.value) } }
    var form: FormParameters { FormParameters(entries.map { FormParameters.Pair($0.name, $0.value) }) }

    init(from decoder: any Decoder) throws { entries = try [Entry](from: decoder) }
    func encode(to encoder: any Encoder) throws { try entries.encode(to: encoder) }
}
