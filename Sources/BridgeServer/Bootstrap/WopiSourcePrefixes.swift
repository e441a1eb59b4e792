import Foundation

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
    /// On UTF-8 bytes: Foundation's `removingPercentEncoding` was 4.7% of a forward-auth check's CPU (`perf record`,
    /// scripts/bench/wopi-forward-auth.sh). The same verdict: a decoded ASCII byte is only ever that character in
    /// UTF-8 (RFC 3629 §3), and the decoded bytes must be UTF-8, as Foundation requires.
    static func isPlainSegment(_ segment: Substring) -> Bool {
        func isPlain(_ byte: UInt8) -> Bool {
            byte != UInt8(ascii: "/") && byte != UInt8(ascii: "\\") && byte >= 0x20 && byte != 0x7F
        }
        let bytes = segment.utf8
        guard bytes.contains(UInt8(ascii: "%")) else {
            return !bytes.elementsEqual(".".utf8) && !bytes.elementsEqual("..".utf8) && bytes.allSatisfy(isPlain)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            guard byte == UInt8(ascii: "%") else {
                decoded.append(byte)
                continue
            }
            guard index != bytes.endIndex, let high = hexValue(bytes[index]) else { return false }
            index = bytes.index(after: index)
            guard index != bytes.endIndex, let low = hexValue(bytes[index]) else { return false }
            index = bytes.index(after: index)
            decoded.append(high << 4 | low)
        }
        guard decoded != Array(".".utf8), decoded != Array("..".utf8), String(validating: decoded, as: UTF8.self) != nil
        else { return false }
        return decoded.allSatisfy(isPlain)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func parts(_ string: String) -> (origin: WebOrigin, segments: [Substring])? {
        guard string.utf8.count <= 2048, let components = URLComponents(string: string),
            let origin = WebOrigin(components)
        else { return nil }
        return (origin, components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: true))
    }
}
