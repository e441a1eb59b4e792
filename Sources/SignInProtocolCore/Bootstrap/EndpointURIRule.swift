/// What an endpoint URI in a bootstrap challenge must be: absolute (RFC 3986 §4.3) with a host, no fragment
/// (RFC 6749 §3.1 and §3.2), and on TLS (RFC 6749 §3.1 "MUST require the use of TLS").
///
/// Decision: `http` is accepted only when the host is loopback (`LoopbackHost`: `localhost`, `127.0.0.0/8`, `[::1]`), so a host can
/// be developed and tested without certificates; it is reported as a `BootstrapChallenge.Warning`. Nothing else
/// plain-text passes.
///
/// Checked by hand rather than with Foundation's `URL`, whose leniency differs between Apple platforms and Linux.
public enum EndpointURIRule {
    public enum Problem: Sendable, Hashable, CustomStringConvertible {
        /// No `scheme:` at the start.
        case notAbsolute
        /// No `//host` after the scheme, or an empty host, or a bad port.
        case missingHost
        /// Not `https`, and not `http` on a loopback host.
        case insecureScheme(String)
        case hasFragment
        /// A byte that may not appear in a URI (space, `"`, `\`, non-ASCII, a bad `%` escape…) at this offset of
        /// the value.
        case invalidCharacter(offset: Int)

        public var description: String {
            switch self {
            case .notAbsolute: "not an absolute URI"
            case .missingHost: "no host (expected scheme://host/…)"
            case .insecureScheme(let scheme): "scheme \(scheme) is not https (http only on loopback)"
            case .hasFragment: "an endpoint URI must not have a #fragment (RFC 6749 §3.1)"
            case .invalidCharacter(let offset): "character not allowed in a URI at byte \(offset) of the value"
            }
        }
    }

    /// nil when `uri` is acceptable.
    public static func problem(with uri: String) -> Problem? {
        let bytes = Array(uri.utf8)
        if let offset = invalidCharacterOffset(bytes) { return .invalidCharacter(offset: offset) }
        guard let parts = split(bytes) else { return .notAbsolute }
        if bytes.contains(UInt8(ascii: "#")) { return .hasFragment }
        guard let host = parts.host else { return .missingHost }
        switch parts.scheme {
        case "https": return nil
        case "http" where LoopbackHost.isLoopback(host): return nil
        default: return .insecureScheme(parts.scheme)
        }
    }

    /// True for an acceptable `http` (so loopback) URI: worth a warning.
    static func isPlainHTTP(_ uri: String) -> Bool {
        split(Array(uri.utf8))?.scheme == "http"
    }

    /// The lower-cased scheme and the host (nil when missing or malformed); nil when there is no scheme.
    private static func split(_ bytes: [UInt8]) -> (scheme: String, host: String?)? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
        let scheme = bytes[..<colon]
        guard isLetter(scheme.first!),
            scheme.allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        else { return nil }
        let schemeText = String(decoding: scheme, as: UTF8.self).asciiLowercased()
        let rest = bytes[(colon + 1)...]
        guard rest.starts(with: "//".utf8) else { return (schemeText, nil) }
        let authorityStart = rest.startIndex + 2
        let authorityEnd = rest[authorityStart...].firstIndex { "/?#".utf8.contains($0) } ?? rest.endIndex
        var hostPort = rest[authorityStart..<authorityEnd]
        if let at = hostPort.lastIndex(of: UInt8(ascii: "@")) { hostPort = hostPort[(at + 1)...] }
        let host: ArraySlice<UInt8>
        let port: ArraySlice<UInt8>
        if hostPort.first == UInt8(ascii: "[") {
            guard let close = hostPort.firstIndex(of: UInt8(ascii: "]")) else { return (schemeText, nil) }
            host = hostPort[...close]
            port = hostPort[(close + 1)...]
        } else if let portColon = hostPort.firstIndex(of: UInt8(ascii: ":")) {
            host = hostPort[..<portColon]
            port = hostPort[portColon...]
        } else {
            host = hostPort
            port = []
        }
        let portValid = port.isEmpty || (port.first == UInt8(ascii: ":") && port.dropFirst().allSatisfy(isDigit))
        guard !host.isEmpty, portValid else { return (schemeText, nil) }
        return (schemeText, String(decoding: host, as: UTF8.self).asciiLowercased())
    }

    /// RFC 3986 §2: unreserved, reserved (gen-delims and sub-delims), and `%` followed by two hex digits.
    private static func invalidCharacterOffset(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, PercentEncoding.hexValue(bytes[index + 1]) != nil,
                    PercentEncoding.hexValue(bytes[index + 2]) != nil
                else { return index }
                index += 3
                continue
            }
            guard PercentEncoding.isUnreserved(byte) || ":/?#[]@!$&'()*+,;=".utf8.contains(byte) else { return index }
            index += 1
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
