import Foundation

/// A DPoP proof JWT as sent in the `DPoP` header (RFC 9449 §4.2), decoded but not yet checked: the signature and
/// the claims are judged against the request by the server (`DPoPProofCheck`). Only the syntax is checked here:
/// three base64url parts, JSON objects, the required members present with the right JSON types.
public struct DPoPProof: Sendable, Hashable {
    /// The JOSE header's members a proof uses.
    public struct Header: Sendable, Hashable {
        public var type: String
        public var algorithm: String
        /// The public key, as sent (RFC 7517 members); a private member in it makes the proof invalid (§4.3).
        public var key: [String: JSONValue]
    }

    /// The claims of §4.2.
    public struct Claims: Sendable, Hashable {
        public var id: String
        public var method: String
        public var targetURI: String
        public var issuedAt: Int64
        /// `ath`: base64url SHA-256 of the access token, on requests to protected resources (§4.2, §7).
        public var accessTokenHash: String?
        public var nonce: String?
    }

    public var header: Header
    public var claims: Claims
    /// `BASE64URL(header) || '.' || BASE64URL(payload)`, the bytes the signature covers (RFC 7515 §5.2).
    public var signingInput: [UInt8]
    public var signature: [UInt8]

    /// Proofs are small (a key and six claims); 8 KiB leaves room for a 4096-bit RSA key.
    public static let defaultLimit = InputLimit(maxBytes: 8 * 1024)

    public init(parsing text: String, limit: InputLimit = Self.defaultLimit) throws(DPoPProofError) {
        do { try limit.check(text, what: "DPoP proof") } catch { throw .tooLarge(error) }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else { throw .notCompactJWS }
        let headerObject = try Self.object(parts[0], part: "header")
        let payloadObject = try Self.object(parts[1], part: "payload")
        guard let signature = Base64URL.decode(String(parts[2])) else { throw .malformed(part: "signature") }
        header = Header(
            type: try Self.string("typ", in: headerObject),
            algorithm: try Self.string("alg", in: headerObject),
            key: try Self.member("jwk", in: headerObject, as: "a JSON object") { value in
                if case .object(let members) = value { members } else { nil }
            })
        claims = Claims(
            id: try Self.string("jti", in: payloadObject),
            method: try Self.string("htm", in: payloadObject),
            targetURI: try Self.string("htu", in: payloadObject),
            issuedAt: try Self.member("iat", in: payloadObject, as: "a number of seconds") { value in
                switch value {
                case .integer(let seconds): seconds
                // RFC 7519 §2 NumericDate allows fractions; the whole seconds are what the window is judged on.
                case .number(let seconds) where seconds.isFinite && abs(seconds) < 1e15: Int64(seconds)
                default: nil
                }
            },
            accessTokenHash: try Self.optionalString("ath", in: payloadObject),
            nonce: try Self.optionalString("nonce", in: payloadObject))
        signingInput = Array(text.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        self.signature = signature
    }

    private static func object(_ part: Substring, part name: String) throws(DPoPProofError) -> [String: JSONValue] {
        guard let bytes = Base64URL.decode(String(part)),
            case .object(let members)? = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        else { throw .malformed(part: name) }
        return members
    }

    private static func member<T>(
        _ name: String, in object: [String: JSONValue], as expected: String, _ read: (JSONValue) -> T?
    ) throws(DPoPProofError) -> T {
        guard let value = object[name] else { throw .missing(member: name) }
        guard let typed = read(value) else { throw .invalid(member: name, reason: "is not \(expected)") }
        return typed
    }

    private static func string(_ name: String, in object: [String: JSONValue]) throws(DPoPProofError) -> String {
        let value = try member(name, in: object, as: "a non-empty string") { value in
            if case .string(let text) = value, !text.isEmpty { text } else { nil }
        }
        return value
    }

    private static func optionalString(_ name: String, in object: [String: JSONValue]) throws(DPoPProofError) -> String? {
        guard object[name] != nil else { return nil }
        return try string(name, in: object)
    }
}
