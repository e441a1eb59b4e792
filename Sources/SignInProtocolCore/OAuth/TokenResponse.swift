/// A successful token endpoint response (RFC 6749 §5.1), as JSON.
///
/// `expires_in` is read as a number or as a string of digits (one Office docs example sends `"3600"`), and
/// always written as a number. Office reads `0` as "does not expire". Unknown fields are kept.
public struct TokenResponse: Sendable, Hashable {
    public var accessToken: String
    /// `Bearer` in every flow here; compared case-insensitively by clients (RFC 6749 §7.1).
    public var tokenType: String
    /// Lifetime in seconds.
    public var expiresIn: Int?
    public var refreshToken: String?
    public var scope: String?
    /// RFC 8693 §2.2.1 `issued_token_type`, required in token exchange responses.
    public var issuedTokenType: String?
    /// Every other field, by name (for example `id_token`, SPiD's `user_id`).
    public var additionalFields: [String: JSONValue]

    public init(
        accessToken: String, tokenType: String = "Bearer", expiresIn: Int? = nil, refreshToken: String? = nil,
        scope: String? = nil, issuedTokenType: String? = nil, additionalFields: [String: JSONValue] = [:]
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.scope = scope
        self.issuedTokenType = issuedTokenType
        self.additionalFields = additionalFields
    }

    /// Decodes a response body, refusing input over `limit`. Missing `access_token` or `token_type` gives
    /// `missingParameter`; an `expires_in` that is not a non-negative whole number gives `invalidParameter`.
    public static func decode(json: some StringProtocol, limit: InputLimit = .default) throws(OAuthDecodingError) -> TokenResponse {
        try JSONBody.decode(TokenResponse.self, from: json, limit: limit, what: "token response")
    }

    /// The JSON body (sorted keys, compact).
    public var json: String { JSONBody.encode(self) }
}

extension TokenResponse: Codable, CompactJSONRepresentable {
    static let declared: Set<String> = [
        "access_token", "token_type", "expires_in", "refresh_token", "scope", "issued_token_type",
    ]

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        func string(_ name: String) throws -> String? {
            try container.decodeIfPresent(String.self, forKey: AnyCodingKey(name))
        }
        accessToken = try container.decode(String.self, forKey: AnyCodingKey("access_token"))
        tokenType = try container.decode(String.self, forKey: AnyCodingKey("token_type"))
        for (name, value) in [("access_token", accessToken), ("token_type", tokenType)] where value.isEmpty {
            throw DecodingError.dataCorruptedError(forKey: AnyCodingKey(name), in: container, debugDescription: "must not be empty")
        }
        expiresIn = try Self.decodeExpiresIn(container)
        refreshToken = try string("refresh_token")
        scope = try string("scope")
        issuedTokenType = try string("issued_token_type")
        var extra = [String: JSONValue]()
        for key in container.allKeys where !Self.declared.contains(key.stringValue) {
            extra[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        additionalFields = extra
    }

    static func decodeExpiresIn(_ container: KeyedDecodingContainer<AnyCodingKey>) throws -> Int? {
        let key = AnyCodingKey("expires_in")
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
        let seconds: Int?
        if let number = try? container.decode(Int.self, forKey: key) {
            seconds = number
        } else if let text = try? container.decode(String.self, forKey: key),
            !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (48...57).contains($0) })
        {
            seconds = Int(text)
        } else {
            seconds = nil
        }
        guard let seconds, seconds >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "expires_in must be a non-negative whole number of seconds, as a number or a string of digits")
        }
        return seconds
    }

    /// The same members as `encode(to:)` writes, for `JSONValue.compactJSON`.
    public var jsonValue: JSONValue {
        var members = additionalFields
        members["access_token"] = .string(accessToken)
        members["token_type"] = .string(tokenType)
        members["expires_in"] = expiresIn.map { .integer(Int64($0)) }
        members["refresh_token"] = refreshToken.map(JSONValue.string)
        members["scope"] = scope.map(JSONValue.string)
        members["issued_token_type"] = issuedTokenType.map(JSONValue.string)
        return .object(members)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        // Declared fields win over an additional field of the same name.
        for (name, value) in additionalFields where !Self.declared.contains(name) {
            try container.encode(value, forKey: AnyCodingKey(name))
        }
        try container.encode(accessToken, forKey: AnyCodingKey("access_token"))
        try container.encode(tokenType, forKey: AnyCodingKey("token_type"))
        try container.encodeIfPresent(expiresIn, forKey: AnyCodingKey("expires_in"))
        try container.encodeIfPresent(refreshToken, forKey: AnyCodingKey("refresh_token"))
        try container.encodeIfPresent(scope, forKey: AnyCodingKey("scope"))
        try container.encodeIfPresent(issuedTokenType, forKey: AnyCodingKey("issued_token_type"))
    }
}
