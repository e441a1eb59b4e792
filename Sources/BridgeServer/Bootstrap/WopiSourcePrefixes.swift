import Foundation

/// The WOPI resources this host serves: a `X-WOPI-WopiSrc` is accepted when it starts with one of the configured
/// prefixes, compared as URLs (scheme and host ignoring case, same port, path on whole segments), so that
/// `https://wopi.example/files` does not accept `https://wopi.example/files-of-someone-else/1` or
/// `https://wopi.example.attacker.test/…`, nor the prefix folder itself. Dot segments are refused outright, also
/// percent-encoded (`%2e%2e`), since a WOPI server that decodes the path would resolve them (RFC 3986 §6.2.2.2
/// normalises `%2E` to `.`), and so are encoded slashes, backslashes and control characters such as `%00`.
struct WopiSourcePrefixes: Sendable {
    struct Prefix: Sendable {
        let scheme: String
        let host: String
        let port: Int?
        let pathSegments: [Substring]
    }

    let prefixes: [Prefix]

    init(_ strings: [String]) {
        prefixes = strings.compactMap { string in
            guard let parts = Self.parts(string) else { return nil }
            return Prefix(scheme: parts.scheme, host: parts.host, port: parts.port, pathSegments: parts.segments)
        }
    }

    func contains(_ wopiSrc: String) -> Bool {
        guard let candidate = Self.parts(wopiSrc), candidate.segments.allSatisfy(Self.isPlainSegment) else { return false }
        return prefixes.contains { prefix in
            prefix.scheme == candidate.scheme && prefix.host == candidate.host && prefix.port == candidate.port
                && candidate.segments.count > prefix.pathSegments.count
                && zip(prefix.pathSegments, candidate.segments).allSatisfy { $0 == $1 }
        }
    }

    /// A segment that means itself once decoded: valid percent-encoding, not `.` or `..`, no `/`, `\\` or control.
    private static func isPlainSegment(_ segment: Substring) -> Bool {
        guard let decoded = String(segment).removingPercentEncoding, decoded != ".", decoded != ".." else { return false }
        return !decoded.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// The host as written (an IDN as punycode), as `TokenEndpointPaths.origin` compares it: no ICU IDNA tables.
    private static func parts(_ string: String) -> (scheme: String, host: String, port: Int?, segments: [Substring])? {
        guard string.utf8.count <= 2048, let components = URLComponents(string: string),
            let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = components.encodedHost?.lowercased(), !host.isEmpty, components.user == nil
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port == defaultPort ? nil : components.port
        let segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: true)
        return (scheme, host, port, segments)
    }
}
