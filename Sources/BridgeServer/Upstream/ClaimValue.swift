import BridgeStore
import Foundation
import SignInProtocol

/// A JSON claim value, in the shapes the checks and the claim mapping read.
enum ClaimValue: Sendable, Hashable, Decodable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case strings([String])
    case other

    /// The shape of a decoded JSON member (`CompactJWT`'s payload, an introspection answer).
    init(_ value: JSONValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .integer(let number): self = .number(Double(number))
        case .number(let number): self = .number(number)
        case .bool(let flag): self = .bool(flag)
        case .array(let items):
            let texts = items.compactMap { item -> String? in if case .string(let text) = item { text } else { nil } }
            self = texts.count == items.count ? .strings(texts) : .other
        case .null, .object: self = .other
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // JSONDecoder keeps JSON's types apart: `true` is no number and `1` no boolean.
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String].self) {
            self = .strings(value)
        } else {
            self = .other
        }
    }

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var number: Double? { if case .number(let value) = self { value } else { nil } }
    /// `aud` is a string or an array of strings (OpenID Connect Core §2).
    var strings: [String]? {
        switch self {
        case .string(let value): [value]
        case .strings(let values): values
        default: nil
        }
    }
    /// `email_verified` is a JSON boolean; some providers send the string "true".
    var isTrue: Bool {
        switch self {
        case .bool(let value): value
        case .string(let value): value == "true"
        default: false
        }
    }
}
