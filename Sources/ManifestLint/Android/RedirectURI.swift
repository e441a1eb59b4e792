import SignInProtocolCore

/// A redirect URI split the way Android matches an intent's data against `<data>` elements: scheme, host and path.
/// https://developer.android.com/guide/components/intents-filters#DataTest
struct RedirectURI: Sendable, Hashable {
    var text: String
    var scheme: String
    var host: String?
    var path: String
    /// The query and the fragment as written (still percent-encoded), without `?` and `#` (RFC 3986 §3.4, §3.5).
    var query: String?
    var fragment: String?

    /// nil when `text` has no scheme (RFC 3986 §3.1).
    init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        self.text = text
        scheme = String(text[..<colon]).asciiLowercased()
        guard URIComponents.isValidScheme(scheme) else { return nil }
        var rest = text[text.index(after: colon)...]
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        if rest.hasPrefix("//") {
            let authority = rest.dropFirst(2).prefix { $0 != "/" }
            let hostAndPort = authority.split(separator: "@").last.map(String.init) ?? ""
            host = String(hostAndPort.prefix { $0 != ":" }).asciiLowercased()
            path = String(rest.dropFirst(2 + authority.count))
        } else {
            host = nil
            path = String(rest)
        }
    }

    /// Android's data test: the scheme must be listed; a filter with hosts needs the host; a filter with hosts
    /// and paths needs one path to match. Without hosts, host and path are not compared.
    func matches(_ filter: IntentFilter) -> Bool {
        guard filter.schemes.contains(where: { $0.value.asciiLowercased() == scheme }) else { return false }
        let hosts = filter.dataAttributes("host").map { $0.value.asciiLowercased() }
        guard !hosts.isEmpty else { return true }
        guard let host, hosts.contains(where: { Self.host(host, matches: $0) }) else { return false }
        let paths = PathKind.allCases.flatMap { kind in filter.dataAttributes(kind.rawValue).map { (kind, $0.value) } }
        return paths.isEmpty || paths.contains { kind, value in kind.matches(path, value) }
    }

    /// `*` alone matches every host; a leading `*` matches hosts ending in the rest (`*.contoso.com`).
    static func host(_ host: String, matches pattern: String) -> Bool {
        if pattern == "*" { return true }
        if pattern.hasPrefix("*") { return host.hasSuffix(pattern.dropFirst()) }
        return host == pattern
    }

    enum PathKind: String, CaseIterable {
        case path, pathPrefix, pathSuffix, pathPattern, pathAdvancedPattern

        func matches(_ path: String, _ value: String) -> Bool {
            switch self {
            case .path: path == value
            case .pathPrefix: path.hasPrefix(value)
            case .pathSuffix: path.hasSuffix(value)
            case .pathPattern: Self.simpleGlob(Array(value), Array(path))
            // A full regular expression: assume it matches rather than call a receiver unreachable.
            case .pathAdvancedPattern: true
            }
        }

        /// Android's PATTERN_SIMPLE_GLOB: `.` any character, `x*` any run of x, `.*` anything, `\` escapes.
        /// https://developer.android.com/reference/android/os/PatternMatcher#PATTERN_SIMPLE_GLOB
        static func simpleGlob(_ pattern: [Character], _ text: [Character]) -> Bool {
            func match(_ p: Int, _ t: Int) -> Bool {
                if p == pattern.count { return t == text.count }
                var literal = pattern[p]
                var next = p + 1
                var escaped = false
                if literal == "\\", next < pattern.count {
                    literal = pattern[next]
                    next += 1
                    escaped = true
                }
                let fits: (Int) -> Bool = { $0 < text.count && ((!escaped && literal == ".") || text[$0] == literal) }
                if next < pattern.count, pattern[next] == "*" {
                    var t2 = t
                    while true {
                        if match(next + 1, t2) { return true }
                        guard fits(t2) else { return false }
                        t2 += 1
                    }
                }
                return fits(t) && match(next, t + 1)
            }
            return match(0, 0)
        }
    }
}
