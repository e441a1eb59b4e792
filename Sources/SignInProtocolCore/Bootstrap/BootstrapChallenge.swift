/// The `Bearer` challenge a WOPI host sends with `401` from `GET /wopibootstrapper` (Microsoft's app-to-app docs, "Service-side
/// Changes"; Microsoft's Office app-to-app docs): where Office signs the user in, where it redeems the code, and how it may open the
/// partner app instead of a WebView.
///
/// ```
/// Bearer authorization_uri="https://contoso.com/api/oauth2/authorize",tokenIssuance_uri="https://contoso.com/api/oauth2/token",providerId="tp_contoso",UrlSchemes="%7B%22iOS%22%3A%5B%22contoso%22%5D%7D"
/// ```
public struct BootstrapChallenge: Sendable, Hashable {
    /// The OAuth 2.0 authorization endpoint (RFC 6749 §3.1). Absolute; `https`, or `http` on loopback only.
    public var authorizationURI: String
    /// The OAuth 2.0 token endpoint (RFC 6749 §3.2). Same rules as `authorizationURI`.
    public var tokenIssuanceURI: String
    /// The id registered with Office. Letters and digits per the docs; `_` is accepted with a warning because the
    /// docs' own examples (`tp_contoso`, `TP_CONTOSO`) use it.
    public var providerId: String?
    public var urlSchemes: UrlSchemes?
    /// RFC 9728 §5.1: where the protected resource's metadata lives. Absolute, same rules as the endpoints.
    public var resourceMetadata: String?
    /// Any other parameter of the Bearer challenge (`realm`, RFC 6750 `error`, …), in the order received.
    public var otherParameters: [AuthenticationChallenge.Parameter]

    public init(
        authorizationURI: String,
        tokenIssuanceURI: String,
        providerId: String? = nil,
        urlSchemes: UrlSchemes? = nil,
        resourceMetadata: String? = nil,
        otherParameters: [AuthenticationChallenge.Parameter] = []
    ) {
        self.authorizationURI = authorizationURI
        self.tokenIssuanceURI = tokenIssuanceURI
        self.providerId = providerId
        self.urlSchemes = urlSchemes
        self.resourceMetadata = resourceMetadata
        self.otherParameters = otherParameters
    }

    /// Parameter names as the docs spell them (matching is case-insensitive, RFC 9110 §11.2).
    public enum ParameterName {
        public static let authorizationURI = "authorization_uri"
        public static let tokenIssuanceURI = "tokenIssuance_uri"
        public static let providerId = "providerId"
        public static let urlSchemes = "UrlSchemes"
        public static let resourceMetadata = "resource_metadata"
    }

    /// Things that are accepted but that a host should fix; `signin-bridge challenge parse` prints them.
    public enum Warning: Sendable, Hashable, CustomStringConvertible {
        /// The docs allow `[a-zA-Z0-9]` only, yet their own examples use `_`.
        case providerIdHasUnderscore(String)
        /// `http` is accepted on loopback for development; Office requires TLS in production.
        case plainHTTPOnLoopback(parameter: String)

        public var description: String {
            switch self {
            case .providerIdHasUnderscore(let id):
                "providerId \"\(id)\" contains '_': the docs allow letters and digits only (their examples use '_')"
            case .plainHTTPOnLoopback(let parameter):
                "\(parameter) uses http on a loopback host: fine for development, Office needs https in production"
            }
        }
    }

    public var warnings: [Warning] {
        var result = [Warning]()
        if let providerId, providerId.contains("_") { result.append(.providerIdHasUnderscore(providerId)) }
        let uris: [(String, String?)] = [
            (ParameterName.authorizationURI, authorizationURI), (ParameterName.tokenIssuanceURI, tokenIssuanceURI),
            (ParameterName.resourceMetadata, resourceMetadata),
        ]
        for case (let name, let uri?) in uris where EndpointURIRule.isPlainHTTP(uri) {
            result.append(.plainHTTPOnLoopback(parameter: name))
        }
        return result
    }
}

// MARK: - Serializing

extension BootstrapChallenge {
    /// The challenge as the `WWW-Authenticate` value: the documented order and form, quoted values, `,` between
    /// parameters, optional ones omitted. Valid URIs and the percent-encoded `UrlSchemes` never need a quoted-pair,
    /// so clients that split on `,` and `=` still read it (Microsoft's Office app-to-app docs).
    public var headerValue: String { challenge.headerValue }

    /// The same challenge in the general form.
    public var challenge: AuthenticationChallenge {
        var parameters = [AuthenticationChallenge.Parameter]()
        parameters.append(.init(name: ParameterName.authorizationURI, value: authorizationURI))
        parameters.append(.init(name: ParameterName.tokenIssuanceURI, value: tokenIssuanceURI))
        if let providerId { parameters.append(.init(name: ParameterName.providerId, value: providerId)) }
        if let urlSchemes { parameters.append(.init(name: ParameterName.urlSchemes, value: urlSchemes.headerValue)) }
        if let resourceMetadata {
            parameters.append(.init(name: ParameterName.resourceMetadata, value: resourceMetadata))
        }
        parameters += otherParameters
        return AuthenticationChallenge(scheme: "Bearer", parameters: parameters)
    }
}

// MARK: - Parsing

extension BootstrapChallenge {
    /// Parses the `WWW-Authenticate` field values of a bootstrap `401` (one string per header line) and applies
    /// the Office rules: exactly one `Bearer` challenge, with the required endpoints, a valid `providerId` and a
    /// decodable `UrlSchemes`. Other schemes (`Basic`, `Negotiate`, …) may sit beside it and are ignored.
    public static func parse(
        headerValues: [String], limit: InputLimit = .default
    ) throws(BootstrapChallengeError) -> BootstrapChallenge {
        let challenges: [AuthenticationChallenge.Located]
        do {
            challenges = try AuthenticationChallenge.parseLocated(headerValues: headerValues, limit: limit).challenges
        } catch {
            throw .syntax(error)
        }
        let bearers = challenges.filter { $0.challenge.hasScheme("Bearer") }
        guard let bearer = bearers.first else { throw .noBearerChallenge }
        guard bearers.count == 1 else { throw .multipleBearerChallenges(at: bearers[1].position) }
        if bearer.challenge.token68 != nil { throw .bearerWithoutParameters(at: bearer.position) }
        return try from(bearer, limit: limit)
    }

    /// `parse(headerValues: [headerValue])`.
    public static func parse(
        headerValue: String, limit: InputLimit = .default
    ) throws(BootstrapChallengeError) -> BootstrapChallenge {
        try parse(headerValues: [headerValue], limit: limit)
    }

    private static func from(
        _ bearer: AuthenticationChallenge.Located, limit: InputLimit
    ) throws(BootstrapChallengeError) -> BootstrapChallenge {
        var found = [String: (value: String, position: HeaderPosition)]()
        var others = [AuthenticationChallenge.Parameter]()
        let known = [
            ParameterName.authorizationURI, ParameterName.tokenIssuanceURI, ParameterName.providerId,
            ParameterName.urlSchemes, ParameterName.resourceMetadata,
        ].map { $0.asciiLowercased() }
        for (parameter, position) in zip(bearer.challenge.parameters, bearer.parameterPositions) {
            let key = parameter.name.asciiLowercased()
            if known.contains(key) {
                found[key] = (parameter.value, position)
            } else {
                others.append(parameter)
            }
        }

        func required(_ name: String) throws(BootstrapChallengeError) -> String {
            guard let entry = found[name.asciiLowercased()] else { throw .missingParameter(name) }
            try checkURI(name, entry)
            return entry.value
        }
        func checkURI(_ name: String, _ entry: (value: String, position: HeaderPosition)) throws(BootstrapChallengeError) {
            if let problem = EndpointURIRule.problem(with: entry.value) {
                throw .invalidURI(parameter: name, problem, at: entry.position)
            }
        }

        var result = BootstrapChallenge(
            authorizationURI: try required(ParameterName.authorizationURI),
            tokenIssuanceURI: try required(ParameterName.tokenIssuanceURI),
            otherParameters: others)

        if let entry = found[ParameterName.providerId.asciiLowercased()] {
            try checkProviderId(entry.value, at: entry.position)
            result.providerId = entry.value
        }
        if let entry = found[ParameterName.urlSchemes.asciiLowercased()] {
            do {
                result.urlSchemes = try UrlSchemes(headerValue: entry.value, limit: limit)
            } catch {
                throw .invalidUrlSchemes(error, at: entry.position)
            }
        }
        if let entry = found[ParameterName.resourceMetadata.asciiLowercased()] {
            try checkURI(ParameterName.resourceMetadata, entry)
            result.resourceMetadata = entry.value
        }
        return result
    }

    /// Letters and digits, plus `_` (see `Warning.providerIdHasUnderscore`).
    private static func checkProviderId(_ id: String, at position: HeaderPosition) throws(BootstrapChallengeError) {
        guard !id.isEmpty else { throw .invalidProviderId(id, at: position) }
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                continue
            default:
                throw .invalidProviderId(id, at: position)
            }
        }
    }
}

/// A bootstrap challenge breaks a rule. Positions point at the offending parameter's name in the header value.
public enum BootstrapChallengeError: Error, Sendable, Hashable, CustomStringConvertible {
    case syntax(AuthenticationChallengeError)
    case noBearerChallenge
    /// A second `Bearer` challenge starts here; Office needs exactly one.
    case multipleBearerChallenges(at: HeaderPosition)
    /// `Bearer <token68>`: the Office parameters are missing.
    case bearerWithoutParameters(at: HeaderPosition)
    case missingParameter(String)
    case invalidURI(parameter: String, EndpointURIRule.Problem, at: HeaderPosition)
    /// Empty, or a character other than letters, digits and `_`.
    case invalidProviderId(String, at: HeaderPosition)
    case invalidUrlSchemes(UrlSchemesError, at: HeaderPosition)

    public var description: String {
        switch self {
        case .syntax(let error): "WWW-Authenticate: \(error)"
        case .noBearerChallenge: "WWW-Authenticate: no Bearer challenge"
        case .multipleBearerChallenges(let at): "WWW-Authenticate: a second Bearer challenge at \(at); exactly one is allowed"
        case .bearerWithoutParameters(let at):
            "WWW-Authenticate: the Bearer challenge at \(at) has a token68 instead of parameters"
        case .missingParameter(let name): "WWW-Authenticate: Bearer challenge lacks required parameter \(name)"
        case .invalidURI(let name, let problem, let at): "WWW-Authenticate: \(name) at \(at): \(problem)"
        case .invalidProviderId(let id, let at):
            "WWW-Authenticate: providerId at \(at): \"\(id)\" must be letters and digits"
        case .invalidUrlSchemes(let error, let at): "WWW-Authenticate: UrlSchemes at \(at): \(error)"
        }
    }
}
