/// What the partner app tells Office after sign-in: the payload of the Back URL without `action`, which is also,
/// verbatim, the Android `ResponseUrlQueryParams` extra (Microsoft's app-to-app docs).
///
/// Success: `code=abcdefg&tk=https%3A%2F%2Fcontoso.com%2Fapi%2Ftoken%2F&sc=xyz`.
/// Failure (RFC 6749 §4.1.2.1): `error=access_denied&error_description=…&error_uri=…`.
public enum OfficeSignInResult: Sendable, Hashable {
    case success(Success)
    case failure(Failure)

    public struct Success: Sendable, Hashable {
        /// The authorization code Office redeems at the token endpoint.
        public var code: String
        /// `tk`: a token endpoint that overrides `tokenIssuance_uri` for this grant (code exchange and refresh).
        public var tokenEndpoint: String?
        /// `sc`: a session context Office echoes in `X-WOPI-SessionContext`.
        public var sessionContext: String?

        public init(code: String, tokenEndpoint: String? = nil, sessionContext: String? = nil) {
            self.code = code
            self.tokenEndpoint = tokenEndpoint
            self.sessionContext = sessionContext
        }
    }

    public struct Failure: Sendable, Hashable {
        /// An RFC 6749 §4.1.2.1 error code such as `access_denied` or `invalid_request`.
        public var error: String
        public var errorDescription: String?
        public var errorURI: String?

        public init(error: String, errorDescription: String? = nil, errorURI: String? = nil) {
            self.error = error
            self.errorDescription = errorDescription
            self.errorURI = errorURI
        }
    }

    public enum Name {
        public static let code = "code"
        public static let tokenEndpoint = "tk"
        public static let sessionContext = "sc"
        public static let error = "error"
        public static let errorDescription = "error_description"
        public static let errorURI = "error_uri"
        static let all = [code, tokenEndpoint, sessionContext, error, errorDescription, errorURI]
    }

    public var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    /// `code, tk, sc` or `error, error_description, error_uri`, absent ones omitted.
    public var parameters: FormParameters {
        var form = FormParameters()
        switch self {
        case .success(let success):
            form.append(Name.code, success.code)
            form.append(Name.tokenEndpoint, success.tokenEndpoint)
            form.append(Name.sessionContext, success.sessionContext)
        case .failure(let failure):
            form.append(Name.error, failure.error)
            form.append(Name.errorDescription, failure.errorDescription)
            form.append(Name.errorURI, failure.errorURI)
        }
        return form
    }

    /// The query text, every value percent-encoded outside the unreserved set.
    public var encoded: String { parameters.encoded }

    /// Reads the result parameters out of `form` and returns what is left (e.g. `action`, `state`).
    static func take(from form: FormParameters) throws(OfficeURLError) -> (OfficeSignInResult, rest: FormParameters) {
        let (values, rest) = try OfficeURLParts.take(Name.all, from: form)
        return (try OfficeSignInResult(values: Name.all.map { values[$0] }), rest)
    }

    /// Builds the result from values in the order of `Name.all` (extra trailing values are ignored): `code` or
    /// `error`, never both, never empty.
    init(values: [String?]) throws(OfficeURLError) {
        precondition(values.count >= Name.all.count)
        switch (values[0], values[3]) {
        case (nil, nil): throw .missingCodeAndError
        case (.some, .some): throw .bothCodeAndError
        case (let code?, nil):
            guard !code.isEmpty else { throw .emptyParameter(Name.code) }
            self = .success(Success(code: code, tokenEndpoint: values[1], sessionContext: values[2]))
        case (nil, let error?):
            guard !error.isEmpty else { throw .emptyParameter(Name.error) }
            self = .failure(Failure(error: error, errorDescription: values[4], errorURI: values[5]))
        }
    }

    static let names = ParameterNames(Name.all)

    /// Decodes `code=…&tk=…&sc=…` or `error=…&…` (the Android extra). Other parameters are ignored.
    /// `+` is data, not a space (see `OfficeURLParts.decodeQuery`).
    public init(query: some StringProtocol, limit: InputLimit = .default) throws(OfficeURLError) {
        do { try limit.check(query, what: "sign-in result") } catch { throw .tooLarge(error) }
        let (values, _) = try OfficeURLParts.decodeQuery(
            query, taking: Self.names, limit: limit, baseOffset: 0, what: "sign-in result")
        try self.init(values: values)
    }
}
