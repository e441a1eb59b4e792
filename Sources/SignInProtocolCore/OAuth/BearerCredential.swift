/// The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1). Office's docs also write
/// `Bearer: <token>` (Microsoft's Office app-to-app docs), so a colon after the scheme is accepted too.
///
/// Anything else (another scheme, no token, spaces or characters outside `b64token`) is no credential at all, and
/// the bootstrapper answers it with the challenge, as it does a missing header.
public struct BearerCredential: Sendable, Hashable {
    /// The authentication schemes that carry an access token.
    public enum Scheme: Sendable, Hashable {
        /// RFC 6750 §2.1.
        case bearer
        /// RFC 9449 §7.1: a DPoP-bound token, sent with a proof in the `DPoP` header.
        case dpop

        /// The scheme's name in ASCII lower case (schemes are case-insensitive, RFC 9110 §11.1).
        var name: [UInt8] {
            switch self {
            case .bearer: Array("bearer".utf8)
            case .dpop: Array("dpop".utf8)
            }
        }
    }

    public let token: String

    /// nil for anything but one token of `scheme` (also for a value over `maxBytes`, before any of it is read).
    public init?(authorization value: String?, maxBytes: Int, scheme: Scheme = .bearer) {
        guard let value, value.utf8.count <= maxBytes else { return nil }
        // Bytes, not Characters: this runs on every bootstrap request, and a JWT is several hundred bytes long.
        let bytes = value.utf8
        var start = bytes.firstIndex { !HTTPWhitespace.isWhitespace($0) } ?? bytes.endIndex
        let name = scheme.name
        let written = Array(bytes[start...].prefix(name.count)).map { $0 | 0x20 }  // ASCII lower case; non-letters fail below
        guard written == name else { return nil }
        start = bytes.index(start, offsetBy: name.count)
        // The scheme must be followed by whitespace ("Bearerabc" is some other scheme), or for Bearer a colon.
        var separated = false
        if scheme == .bearer, start < bytes.endIndex, bytes[start] == UInt8(ascii: ":") {
            start = bytes.index(after: start)
            separated = true
        }
        let rest = value[start...]
        let token = HTTPWhitespace.trimmed(rest)
        guard separated || token.startIndex != rest.startIndex else { return nil }
        let candidate = String(token)
        guard !candidate.isEmpty, Self.isB64Token(candidate) else { return nil }
        self.token = candidate
    }

    /// RFC 6750 §2.1: `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
    public static func isB64Token(_ token: String) -> Bool {
        // Over the string's own bytes when it has them (always, for a header value): a JWT is several hundred
        // bytes, and the UTF-8 view's per-byte index checks were 1.5% of an authenticated bootstrap (`perf record`).
        token.utf8.withContiguousStorageIfAvailable(isB64Token) ?? isB64Token(Array(token.utf8))
    }

    static func isB64Token(_ bytes: some Collection<UInt8>) -> Bool {
        var seenPadding = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "="):
                seenPadding = true
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                if seenPadding { return false }
            default:
                return false
            }
        }
        return bytes.first != UInt8(ascii: "=")
    }
}
