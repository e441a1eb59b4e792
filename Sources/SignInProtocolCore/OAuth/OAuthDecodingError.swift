/// Why an OAuth, app-to-app or exchange payload could not be decoded. Every case names the parameter (or
/// JSON field) at fault, and `oauthError` gives the RFC 6749 error a server answers with.
public enum OAuthDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input is over its `InputLimit`.
    case tooLarge(InputTooLarge)
    /// A parameter holds a bad `%` escape or bytes that are not UTF-8 (the byte offset is in the error).
    case badEncoding(parameter: String, PercentDecodingError)
    /// A parameter that may appear once appeared more than once (RFC 6749 §3.1, §3.2).
    case duplicateParameter(String)
    /// A required parameter is missing or empty.
    case missingParameter(String)
    /// A parameter is present but its value breaks a rule; `reason` says which.
    case invalidParameter(String, reason: String)
    /// `grant_type` names a grant this library does not know (RFC 6749 §5.2).
    case unsupportedGrantType(String)
    /// The client authentication (an HTTP Basic header, or credentials sent twice) is unusable (RFC 6749 §2.3).
    case invalidClientAuthentication(reason: String)
    /// A JSON body is not JSON, or not an object.
    case invalidJSON(reason: String)

    /// The error a server sends back for this input.
    public var oauthError: OAuthError {
        switch self {
        case .unsupportedGrantType:
            OAuthError(.unsupportedGrantType, description: "grant_type is not supported")
        case .invalidClientAuthentication(let reason):
            OAuthError(.invalidClient, description: reason)
        default:
            OAuthError(.invalidRequest, description: description)
        }
    }

    public var description: String {
        switch self {
        case .tooLarge(let error): error.description
        case .badEncoding(let parameter, let error): "parameter '\(parameter)': \(error)"
        case .duplicateParameter(let name): "parameter '\(name)' appears more than once"
        case .missingParameter(let name): "required parameter '\(name)' is missing"
        case .invalidParameter(let name, let reason): "parameter '\(name)' is invalid: \(reason)"
        case .unsupportedGrantType(let grant): "grant_type '\(grant)' is not supported"
        case .invalidClientAuthentication(let reason): "client authentication: \(reason)"
        case .invalidJSON(let reason): "body is not a usable JSON object: \(reason)"
        }
    }

    init(_ error: FormDecodingError) {
        switch error {
        case .tooLarge(let tooLarge): self = .tooLarge(tooLarge)
        case .badEncoding(let parameter, let inner): self = .badEncoding(parameter: parameter, inner)
        }
    }
}

extension FormParameters {
    /// Throws `duplicateParameter` for the first of `names` that appears more than once (RFC 6749 §3.1).
    func rejectDuplicates(of names: [String]) throws(OAuthDecodingError) {
        for name in names where values(for: name).count > 1 { throw .duplicateParameter(name) }
    }

    /// Throws `duplicateParameter` for the first of `names` that appears more than once ignoring ASCII case
    /// (for the Office parameters, which clients send as `build` or `Build`).
    func rejectCaseInsensitiveDuplicates(of names: [String]) throws(OAuthDecodingError) {
        for name in names {
            let lowered = name.asciiLowercased()
            if pairs.lazy.filter({ $0.name.asciiLowercased() == lowered }).count > 1 {
                throw .duplicateParameter(name)
            }
        }
    }

    /// The value of `name`, or `missingParameter` when it is absent or empty (RFC 6749 §3.1).
    func required(_ name: String) throws(OAuthDecodingError) -> String {
        guard let value = self[name], !value.isEmpty else { throw .missingParameter(name) }
        return value
    }

    /// The pairs whose names are not in `known`, in order.
    func excluding(_ known: Set<String>) -> FormParameters {
        FormParameters(pairs.filter { !known.contains($0.name) })
    }

    /// Appends every pair of `other`.
    mutating func append(contentsOf other: FormParameters) {
        for pair in other.pairs { append(pair.name, pair.value) }
    }

    /// Decodes a query or form body into `OAuthDecodingError`s.
    public static func decodeForOAuth(
        _ input: some StringProtocol, limit: InputLimit, baseOffset: Int = 0, what: String
    ) throws(OAuthDecodingError) -> FormParameters {
        do {
            return try FormParameters.decode(input, limit: limit, baseOffset: baseOffset, what: what)
        } catch {
            throw OAuthDecodingError(error)
        }
    }
}
