import Foundation

/// JSON decoding and encoding for the OAuth bodies, with the limit checked first and every `DecodingError`
/// turned into an `OAuthDecodingError` that names the field. The server writes its JSON answers through it too.
public enum JSONBody {
    static func decode<T: Decodable>(
        _ type: T.Type, from json: some StringProtocol, limit: InputLimit, what: String
    ) throws(OAuthDecodingError) -> T {
        do { try limit.check(json, what: what) } catch { throw .tooLarge(error) }
        do {
            return try JSONDecoder().decode(T.self, from: Data(json.utf8))
        } catch let error as DecodingError {
            throw OAuthDecodingError(error)
        } catch {
            throw .invalidJSON(reason: "\(error)")
        }
    }

    /// The bytes of the bodies written on hot paths (token and bootstrap answers), without `JSONEncoder`
    /// (`JSONValue.compactJSON` says why).
    public static func bytes(_ value: some CompactJSONRepresentable) -> [UInt8] { value.jsonValue.compactJSON }

    /// Compact JSON with sorted keys, so that equal values give equal bytes.
    public static func bytes(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain value types cannot fail: every field is a string, number or nested object.
        guard let data = try? encoder.encode(value) else { return Array("{}".utf8) }
        return Array(data)
    }

    static func encode(_ value: some CompactJSONRepresentable) -> String { String(decoding: bytes(value), as: UTF8.self) }

    static func encode(_ value: some Encodable) -> String { String(decoding: bytes(value), as: UTF8.self) }
}

extension OAuthDecodingError {
    init(_ error: DecodingError) {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            self = .missingParameter(path(context.codingPath + [key]))
        case .valueNotFound(_, let context):
            self = .missingParameter(path(context.codingPath))
        case .typeMismatch(let type, let context) where !context.codingPath.isEmpty:
            self = .invalidParameter(path(context.codingPath), reason: "expected \(type)")
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            self = .invalidParameter(path(context.codingPath), reason: context.debugDescription)
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            self = .invalidJSON(reason: context.underlyingError.map { "\($0)" } ?? context.debugDescription)
        @unknown default:
            self = .invalidJSON(reason: "\(error)")
        }
    }
}
