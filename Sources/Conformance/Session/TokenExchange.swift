import SignInProtocol

/// A token endpoint's answer, with the fields the checks read.
public struct TokenExchange: Sendable {
    public var response: ObservedResponse
    /// nil when the body is not a JSON object.
    public var json: [String: JSONValue]?

    public init(response: ObservedResponse) {
        self.response = response
        json = JSONObject.parse(response.body)
    }

    public var accessToken: String? { json?["access_token"]?.stringValue }
    public var refreshToken: String? { json?["refresh_token"]?.stringValue }
    /// RFC 6749 §5.2's `error`, on a failed request.
    public var error: String? { json?["error"]?.stringValue }

    /// `"400 invalid_grant"`, for details.
    public var summary: String { "\(response.status)" + (error.map { " " + $0 } ?? "") }
}
