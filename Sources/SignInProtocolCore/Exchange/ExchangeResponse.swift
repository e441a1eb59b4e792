/// The answer to an `ExchangeRequest`: the one-time code, and how long it lives.
///
/// JSON: `{"code":"456def","type":"code","expires_in":30}`. SPiD documents only the code; `type` and
/// `expires_in` are ours, optional when decoding, and `expires_in` is read as a number or a string of digits
/// like `TokenResponse`'s.
public struct ExchangeResponse: Sendable, Hashable, Codable {
    public var code: String
    public var type: ExchangeCodeType?
    /// Seconds until the code expires.
    public var expiresIn: Int?

    public init(code: String, type: ExchangeCodeType? = nil, expiresIn: Int? = nil) {
        self.code = code
        self.type = type
        self.expiresIn = expiresIn
    }

    /// A response for a freshly issued code with the documented lifetime of its type.
    public init(code: String, type: ExchangeCodeType) {
        self.init(code: code, type: type, expiresIn: type.defaultLifetimeSeconds)
    }

    enum CodingKeys: String, CodingKey {
        case code, type
        case expiresIn = "expires_in"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decode(String.self, forKey: .code)
        if code.isEmpty {
            throw DecodingError.dataCorruptedError(forKey: .code, in: container, debugDescription: "must not be empty")
        }
        type = try container.decodeIfPresent(ExchangeCodeType.self, forKey: .type)
        expiresIn = try TokenResponse.decodeExpiresIn(decoder.container(keyedBy: AnyCodingKey.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encodeIfPresent(type, forKey: .type)
        try container.encodeIfPresent(expiresIn, forKey: .expiresIn)
    }

    public static func decode(json: some StringProtocol, limit: InputLimit = .default) throws(OAuthDecodingError) -> ExchangeResponse {
        try JSONBody.decode(ExchangeResponse.self, from: json, limit: limit, what: "exchange response")
    }

    public var json: String { JSONBody.encode(self) }
}
