/// A request to the token endpoint (RFC 6749 §3.2): a grant, an optional scope, and the client's
/// authentication, sent as an `application/x-www-form-urlencoded` body plus, optionally, an `Authorization`
/// header.
public struct TokenRequest: Sendable, Hashable {
    public var grant: Grant
    /// Requested scope (not used by `authorization_code`, whose scope was fixed at authorization).
    public var scope: String?
    /// Nil when the request carries no client identification at all (allowed for some grants).
    public var client: ClientAuthentication?
    /// Parameters this type does not know, in order (for example RFC 8707 `resource` outside token exchange).
    public var additionalParameters: FormParameters

    public init(
        grant: Grant, scope: String? = nil, client: ClientAuthentication? = nil,
        additionalParameters: FormParameters = FormParameters()
    ) {
        self.grant = grant
        self.scope = scope
        self.client = client
        self.additionalParameters = additionalParameters
    }

    /// The grant and its own parameters.
    public enum Grant: Sendable, Hashable {
        /// RFC 6749 §4.1.3; `code_verifier` per RFC 7636 §4.5. Office's `tk` endpoint receives this too.
        case authorizationCode(code: String, redirectURI: String?, codeVerifier: String?)
        /// RFC 6749 §6.
        case refreshToken(String)
        /// RFC 6749 §4.4.
        case clientCredentials
        /// RFC 6749 §4.3, decoded so that a server can refuse it by name: RFC 9700 §2.4 says MUST NOT be used.
        case password(username: String, password: String)
        /// RFC 7523 §2.1 (SPiD uses it for third-party sign-in).
        case jwtBearer(assertion: String)
        /// RFC 8693 token exchange.
        case tokenExchange(TokenExchange)

        /// The `grant_type` value.
        public var grantType: String {
            switch self {
            case .authorizationCode: GrantType.authorizationCode
            case .refreshToken: GrantType.refreshToken
            case .clientCredentials: GrantType.clientCredentials
            case .password: GrantType.password
            case .jwtBearer: GrantType.jwtBearer
            case .tokenExchange: GrantType.tokenExchange
            }
        }
    }

    /// The `grant_type` strings.
    public enum GrantType {
        public static let authorizationCode = "authorization_code"
        public static let refreshToken = "refresh_token"
        public static let clientCredentials = "client_credentials"
        public static let password = "password"
        public static let jwtBearer = "urn:ietf:params:oauth:grant-type:jwt-bearer"
        public static let tokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
    }

    /// The parameters of an RFC 8693 §2.1 token exchange.
    public struct TokenExchange: Sendable, Hashable {
        public var subjectToken: String
        /// e.g. `urn:ietf:params:oauth:token-type:access_token`.
        public var subjectTokenType: String
        public var actorToken: String?
        /// Required exactly when `actorToken` is present (RFC 8693 §2.1).
        public var actorTokenType: String?
        public var requestedTokenType: String?
        /// `resource`, which may appear several times.
        public var resources: [String]
        /// `audience`, which may appear several times.
        public var audiences: [String]

        public init(
            subjectToken: String, subjectTokenType: String, actorToken: String? = nil,
            actorTokenType: String? = nil, requestedTokenType: String? = nil, resources: [String] = [],
            audiences: [String] = []
        ) {
            self.subjectToken = subjectToken
            self.subjectTokenType = subjectTokenType
            self.actorToken = actorToken
            self.actorTokenType = actorTokenType
            self.requestedTokenType = requestedTokenType
            self.resources = resources
            self.audiences = audiences
        }
    }

    /// Parameters that RFC 6749 §3.2 forbids sending twice (the multi-valued RFC 8693 ones are not here).
    static let singleValued = [
        "grant_type", "code", "redirect_uri", "code_verifier", "refresh_token", "scope", "username", "password",
        "assertion", "subject_token", "subject_token_type", "actor_token", "actor_token_type",
        "requested_token_type", "client_id", "client_secret",
    ]

    // MARK: Decoding

    /// Decodes a form body and, when the request had one, the `Authorization` header value.
    public static func decode(
        form body: some StringProtocol, authorization: String? = nil, limit: InputLimit = .default
    ) throws(OAuthDecodingError) -> TokenRequest {
        try decode(FormParameters.decodeForOAuth(body, limit: limit, what: "token request"), authorization: authorization, limit: limit)
    }

    /// Interprets decoded form parameters. `missingParameter` names the absent field, `duplicateParameter` a
    /// repeated one, an unknown `grant_type` gives `unsupportedGrantType`.
    public static func decode(
        _ form: FormParameters, authorization: String? = nil, limit: InputLimit = .default
    ) throws(OAuthDecodingError) -> TokenRequest {
        try form.rejectDuplicates(of: singleValued)
        let grantType = try form.required("grant_type")
        let client = try ClientAuthentication.decode(form: form, authorization: authorization, limit: limit)
        let grant: Grant
        var known: Set<String> = ["grant_type", "scope", "client_id", "client_secret"]
        switch grantType {
        case GrantType.authorizationCode:
            grant = .authorizationCode(
                code: try form.required("code"), redirectURI: form["redirect_uri"].nonEmpty,
                codeVerifier: form["code_verifier"].nonEmpty)
            known.formUnion(["code", "redirect_uri", "code_verifier"])
        case GrantType.refreshToken:
            grant = .refreshToken(try form.required("refresh_token"))
            known.insert("refresh_token")
        case GrantType.clientCredentials:
            grant = .clientCredentials
        case GrantType.password:
            grant = .password(username: try form.required("username"), password: try form.required("password"))
            known.formUnion(["username", "password"])
        case GrantType.jwtBearer:
            grant = .jwtBearer(assertion: try form.required("assertion"))
            known.insert("assertion")
        case GrantType.tokenExchange:
            let actorToken = form["actor_token"].nonEmpty
            let actorTokenType = form["actor_token_type"].nonEmpty
            if actorToken != nil && actorTokenType == nil { throw .missingParameter("actor_token_type") }
            if actorToken == nil && actorTokenType != nil {
                throw .invalidParameter("actor_token_type", reason: "only allowed with actor_token (RFC 8693 section 2.1)")
            }
            grant = .tokenExchange(
                TokenExchange(
                    subjectToken: try form.required("subject_token"),
                    subjectTokenType: try form.required("subject_token_type"),
                    actorToken: actorToken, actorTokenType: actorTokenType,
                    requestedTokenType: form["requested_token_type"].nonEmpty,
                    resources: form.values(for: "resource").filter { !$0.isEmpty },
                    audiences: form.values(for: "audience").filter { !$0.isEmpty }))
            known.formUnion([
                "subject_token", "subject_token_type", "actor_token", "actor_token_type", "requested_token_type",
                "resource", "audience",
            ])
        default:
            throw .unsupportedGrantType(grantType)
        }
        return TokenRequest(
            grant: grant, scope: form["scope"].nonEmpty, client: client, additionalParameters: form.excluding(known))
    }

    // MARK: Encoding

    /// The form body's parameters: `grant_type` first, then the grant's, `scope`, the client's when it
    /// authenticates in the body, then the others.
    public var form: FormParameters {
        var form = FormParameters()
        form.append("grant_type", grant.grantType)
        switch grant {
        case .authorizationCode(let code, let redirectURI, let codeVerifier):
            form.append("code", code)
            form.append("redirect_uri", redirectURI.nonEmpty)
            form.append("code_verifier", codeVerifier.nonEmpty)
        case .refreshToken(let token):
            form.append("refresh_token", token)
        case .clientCredentials:
            break
        case .password(let username, let password):
            form.append("username", username)
            form.append("password", password)
        case .jwtBearer(let assertion):
            form.append("assertion", assertion)
        case .tokenExchange(let exchange):
            form.append("subject_token", exchange.subjectToken)
            form.append("subject_token_type", exchange.subjectTokenType)
            form.append("actor_token", exchange.actorToken.nonEmpty)
            form.append("actor_token_type", exchange.actorTokenType.nonEmpty)
            form.append("requested_token_type", exchange.requestedTokenType.nonEmpty)
            for resource in exchange.resources { form.append("resource", resource) }
            for audience in exchange.audiences { form.append("audience", audience) }
        }
        form.append("scope", scope.nonEmpty)
        if let client, client.method == .requestBody {
            form.append("client_id", client.clientID)
            form.append("client_secret", client.clientSecret.nonEmpty)
        }
        form.append(contentsOf: additionalParameters)
        return form
    }

    /// The `application/x-www-form-urlencoded` body.
    public var formBody: String { form.encoded }

    /// The `Authorization` header value when the client authenticates with HTTP Basic, else nil.
    public var authorizationHeader: String? {
        guard let client, client.method == .httpBasic else { return nil }
        return client.basicAuthorizationHeader
    }
}
