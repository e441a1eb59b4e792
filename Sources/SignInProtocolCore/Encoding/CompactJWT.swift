import Foundation

/// A JWT in the JWS compact serialization (RFC 7515 §7.1, RFC 7519 §3), split and decoded but not verified: the
/// header and payload as JSON objects, the bytes the signature covers and the signature. The one decoder of every
/// JWS another party signs: DPoP proofs, client attestations and their PoPs, upstream ID tokens and a host identity
/// provider's access tokens, so each reads members and judges its header the same way. Our own access tokens are
/// verified by jwt-kit against our key collection; these are not, because their header must be judged before any key
/// is chosen (a DPoP proof's key is in its own header, RFC 9449 §4.2; `typ` and `crit`, RFC 7515 §4.1.11) and this
/// module links no crypto.
public struct CompactJWT: Sendable, Hashable {
    public var header: [String: JSONValue]
    public var payload: [String: JSONValue]
    /// `BASE64URL(header) || '.' || BASE64URL(payload)`, the bytes the signature covers (RFC 7515 §5.2).
    public var signingInput: [UInt8]
    public var signature: [UInt8]

    /// Three non-empty base64url parts, the first two JSON objects; the caller checks the size limit first.
    public init(parsing text: String) throws(JWTProblem) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else { throw .notCompactJWS }
        header = try Self.object(parts[0], part: "header")
        payload = try Self.object(parts[1], part: "payload")
        guard let signature = Base64URL.decode(String(parts[2])) else { throw .malformed(part: "signature") }
        signingInput = Array(text.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        self.signature = signature
    }

    /// As `init(parsing:)`, and the header passes `rules` (`typ`, `alg`, `crit`), the one header rule of every JWS
    /// this server accepts.
    public init(parsing text: String, accepting rules: JOSEHeaderRules) throws(JWTProblem) {
        try self.init(parsing: text)
        try rules.check(header)
    }

    private static func object(_ part: Substring, part name: String) throws(JWTProblem) -> [String: JSONValue] {
        guard let bytes = Base64URL.decode(String(part)),
            case .object(let members)? = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        else { throw .malformed(part: name) }
        return members
    }
}

/// What is wrong with a compact JWT's form or one of its members; names the part or member, never the value sent,
/// so the text can go into an `error_description` as it is.
public enum JWTProblem: Error, Sendable, Hashable {
    /// Not three base64url parts separated by dots (RFC 7515 §7.1).
    case notCompactJWS
    /// `part` ("header", "payload" or "signature") is not base64url, or not a JSON object.
    case malformed(part: String)
    /// A required member is absent.
    case missing(member: String)
    /// A member has the wrong JSON type, or a value the member does not allow.
    case invalid(member: String, reason: String)
}

/// Typed reads of a JWT header's or claims set's members.
extension [String: JSONValue] {
    /// The member read by `read`; `.missing` when absent, `.invalid` when `read` gives nil.
    public func jwtMember<T>(_ name: String, as expected: String, _ read: (JSONValue) -> T?) throws(JWTProblem) -> T {
        guard let value = self[name] else { throw .missing(member: name) }
        guard let typed = read(value) else { throw .invalid(member: name, reason: "is not \(expected)") }
        return typed
    }

    /// A required non-empty string member.
    public func jwtString(_ name: String) throws(JWTProblem) -> String {
        try jwtMember(name, as: "a non-empty string") { value in
            if case .string(let text) = value, !text.isEmpty { text } else { nil }
        }
    }

    /// An optional member that, when present, is a non-empty string.
    public func jwtOptionalString(_ name: String) throws(JWTProblem) -> String? {
        guard self[name] != nil else { return nil }
        return try jwtString(name)
    }

    /// A required NumericDate (RFC 7519 §2), in whole seconds: fractions are allowed and dropped.
    public func jwtSeconds(_ name: String) throws(JWTProblem) -> Int64 {
        try jwtMember(name, as: "a number of seconds") { value in
            switch value {
            case .integer(let seconds): seconds
            case .number(let seconds) where seconds.isFinite && abs(seconds) < 1e15: Int64(seconds)
            default: nil
            }
        }
    }

    /// An optional NumericDate.
    public func jwtOptionalSeconds(_ name: String) throws(JWTProblem) -> Int64? {
        guard self[name] != nil else { return nil }
        return try jwtSeconds(name)
    }

    /// A required JSON object member.
    public func jwtObject(_ name: String) throws(JWTProblem) -> [String: JSONValue] {
        try jwtMember(name, as: "a JSON object") { value in
            if case .object(let members) = value { members } else { nil }
        }
    }
}
