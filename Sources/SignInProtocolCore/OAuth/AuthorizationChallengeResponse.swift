/// The answer of an authorization challenge endpoint (draft-ietf-oauth-first-party-apps-04 §5.2), as JSON: either
/// the authorization code (§5.2.1, `{"authorization_code": …}`, 200) or an error (§5.2.2) that may carry the
/// `auth_session` to send with the next request (§5.3.1), a `request_uri` and its `expires_in` for `redirect_to_web`
/// (§5.2.2.1.1, RFC 9126 §2.2), and members the authorization server defines itself (this server's are in
/// `AuthorizationChallengeStep`). Free of I/O: the server writes it, an app (or a test) reads it.
public enum AuthorizationChallengeResponse: Sendable, Hashable {
    case code(String)
    case error(AuthorizationChallengeError)

    /// The JSON body (sorted keys, compact).
    public var json: String {
        switch self {
        case .code(let code): JSONBody.encode(JSONValue.object(["authorization_code": .string(code)]))
        case .error(let error): JSONBody.encode(error.jsonValue)
        }
    }

    /// Reads an answer: `authorization_code` makes it a code, else `error` must be there.
    public static func decode(json: some StringProtocol, limit: InputLimit = .default) throws(OAuthDecodingError)
        -> AuthorizationChallengeResponse
    {
        let value = try JSONBody.decode(JSONValue.self, from: json, limit: limit, what: "authorization challenge response")
        guard case .object(let members) = value else { throw .invalidJSON(reason: "not a JSON object") }
        if let code = members["authorization_code"] {
            guard case .string(let text) = code, !text.isEmpty else {
                throw .invalidParameter("authorization_code", reason: "must be a non-empty string")
            }
            return .code(text)
        }
        return .error(try AuthorizationChallengeError(members: members))
    }
}

/// An error answer of the authorization challenge endpoint (draft-ietf-oauth-first-party-apps-04 §5.2.2).
public struct AuthorizationChallengeError: Sendable, Hashable {
    public var error: OAuthError
    /// §5.3.1: the value the next request to the endpoint carries; a new one with every answer that continues.
    public var authSession: String?
    /// §5.2.2.1.1: with `redirect_to_web`, the pushed request the browser continues with (RFC 9126 §4).
    public var requestURI: String?
    public var expiresIn: Int?
    /// Members the authorization server defines (§5.2.2 allows them), by name.
    public var additionalFields: [String: JSONValue]

    public init(
        _ error: OAuthError, authSession: String? = nil, requestURI: String? = nil, expiresIn: Int? = nil,
        additionalFields: [String: JSONValue] = [:]
    ) {
        self.error = error
        self.authSession = authSession
        self.requestURI = requestURI
        self.expiresIn = expiresIn
        self.additionalFields = additionalFields
    }

    static let declared: Set<String> = [
        "error", "error_description", "error_uri", "auth_session", "request_uri", "expires_in",
    ]

    init(members: [String: JSONValue]) throws(OAuthDecodingError) {
        func string(_ name: String) throws(OAuthDecodingError) -> String? {
            switch members[name] {
            case nil, .null: return nil
            case .string(let text): return text
            default: throw .invalidParameter(name, reason: "must be a string")
            }
        }
        guard let raw = try string("error") else { throw .missingParameter("error") }
        guard let code = OAuthError.Code(validating: raw) else {
            throw .invalidParameter("error", reason: "not a valid error code (RFC 6749 section 5.2)")
        }
        error = OAuthError(code, description: try string("error_description"), uri: try string("error_uri"))
        authSession = try string("auth_session")
        requestURI = try string("request_uri")
        switch members["expires_in"] {
        case nil, .null: expiresIn = nil
        case .integer(let seconds) where seconds >= 0: expiresIn = Int(seconds)
        default: throw .invalidParameter("expires_in", reason: "must be a non-negative whole number")
        }
        additionalFields = members.filter { !Self.declared.contains($0.key) }
    }

    var jsonValue: JSONValue {
        var members = additionalFields
        members["error"] = .string(error.code.rawValue)
        if let description = error.wireDescription { members["error_description"] = .string(description) }
        if let uri = error.errorURI { members["error_uri"] = .string(uri) }
        if let authSession { members["auth_session"] = .string(authSession) }
        if let requestURI { members["request_uri"] = .string(requestURI) }
        if let expiresIn { members["expires_in"] = .integer(Int64(expiresIn)) }
        return .object(members)
    }
}
