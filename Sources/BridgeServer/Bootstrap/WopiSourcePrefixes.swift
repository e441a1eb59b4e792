import BridgeHTTP
import Foundation
import SignInProtocol

/// The WOPI resources this host serves: a `X-WOPI-WopiSrc` is accepted when it starts with one of the configured
/// prefixes, compared as URLs (scheme and host ignoring case, same port, path on whole segments), so that
/// `https://wopi.example/files` does not accept `https://wopi.example/files-of-someone-else/1` or
/// `https://wopi.example.attacker.test/…`, nor the prefix folder itself. Dot segments are refused outright, also
/// percent-encoded (`%2e%2e`), since a WOPI server that decodes the path would resolve them (RFC 3986 §6.2.2.2
/// normalises `%2E` to `.`), and so are encoded slashes, backslashes and control characters such as `%00`.
struct WopiSourcePrefixes: Sendable {
    struct Prefix: Sendable {
        let origin: WebOrigin
        let pathSegments: [Substring]
        /// The prefix as configured, without a trailing `/`: a file's WopiSrc is this, `/` and the file id.
        let text: Substring
    }

    let prefixes: [Prefix]

    init(_ strings: [String]) {
        prefixes = strings.compactMap { string in
            guard let parts = Self.parts(string) else { return nil }
            var text = Substring(string)
            while text.hasSuffix("/") { text = text.dropLast() }
            return Prefix(origin: parts.origin, pathSegments: parts.segments, text: text)
        }
    }

    func contains(_ wopiSrc: String) -> Bool {
        guard let candidate = Self.parts(wopiSrc), candidate.segments.allSatisfy(Self.isPlainSegment) else { return false }
        return prefixes.contains { prefix in
            prefix.origin == candidate.origin && candidate.segments.count > prefix.pathSegments.count
                && zip(prefix.pathSegments, candidate.segments).allSatisfy { $0 == $1 }
        }
    }

    /// A segment that means itself once decoded: valid percent-encoding, not `.` or `..`, no `/`, `\\` or control.
    /// Decoded by the package's `PercentEncoding`, on UTF-8 bytes: Foundation's `removingPercentEncoding` was 4.7% of
    /// a forward-auth check's CPU (`perf record`, scripts/bench/wopi-forward-auth.sh). The same verdict: a decoded
    /// ASCII byte is only ever that character in UTF-8 (RFC 3629 §3), and the decoded bytes must be UTF-8, as
    /// Foundation requires.
    static func isPlainSegment(_ segment: Substring) -> Bool {
        func isPlain(_ byte: UInt8) -> Bool {
            byte != UInt8(ascii: "/") && byte != UInt8(ascii: "\\") && byte >= 0x20 && byte != 0x7F
        }
        guard let decoded = try? PercentEncoding.decode(segment) else { return false }
        return decoded != "." && decoded != ".." && decoded.utf8.allSatisfy(isPlain)
    }

    private static func parts(_ string: String) -> (origin: WebOrigin, segments: [Substring])? {
        guard string.utf8.count <= 2048, let components = URLComponents(string: string),
            let origin = WebOrigin(components)
        else { return nil }
        return (origin, components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: true))
    }
}
