/// The one answer to "is this host loopback?": an IPv4 literal in 127.0.0.0/8, the IPv6 literal `::1` (bracketed
/// or not, in any spelling), or the name `localhost` exactly. No name lookup and no prefix match, so
/// `127.evil.example`, `127.0.0.1.nip.io` and `localhost.evil.example` are not loopback: DNS may send them anywhere.
///
/// RFC 8252 §7.3 prefers the IP literals over `localhost` (§8.3: the name can be resolved elsewhere), so callers
/// that care ask for `.ipLiteral`; RFC 6761 §6.3 reserves `localhost` itself for the loopback interface.
public enum LoopbackHost: Sendable, Hashable {
    /// `127.x.y.z` or `::1`.
    case ipLiteral
    /// The name `localhost` (any case).
    case localhostName

    /// How `host` (as in a URI's authority, without the port) is loopback; nil when it is not.
    public init?(_ host: some StringProtocol) {
        let lower = String(host).asciiLowercased()
        if lower == "localhost" {
            self = .localhostName
        } else if Self.isIPv4Loopback(lower) || Self.isIPv6Loopback(lower) {
            self = .ipLiteral
        } else {
            return nil
        }
    }

    /// True for any loopback host: an IP literal or `localhost`.
    public static func isLoopback(_ host: (some StringProtocol)?) -> Bool {
        host.flatMap { LoopbackHost($0) } != nil
    }

    /// True only for the loopback IP literals (RFC 8252 §7.3).
    public static func isIPLiteral(_ host: (some StringProtocol)?) -> Bool {
        host.flatMap { LoopbackHost($0) } == .ipLiteral
    }

    /// Four dotted decimal octets (0–255, at most three digits each), the first 127 (RFC 1122 §3.2.1.3).
    private static func isIPv4Loopback(_ host: String) -> Bool {
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in
            !octet.isEmpty && octet.utf8.count <= 3 && octet.utf8.allSatisfy { (48...57).contains($0) }
                && (Int(octet) ?? 256) <= 255
        }
    }

    /// `::1` in any RFC 4291 §2.2 spelling (`[::1]`, `0:0:0:0:0:0:0:1`, `::0001`): seven zero groups and a 1.
    private static func isIPv6Loopback(_ host: String) -> Bool {
        var text = Substring(host)
        if text.first == "[" {
            guard text.last == "]" else { return false }
            text = text.dropFirst().dropLast()
        }
        guard text.contains(":"), text.utf8.count <= 39 else { return false }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return false }
        func groups(_ part: String) -> [Substring]? {
            if part.isEmpty { return [] }
            let groups = part.split(separator: ":", omittingEmptySubsequences: false)
            let valid = groups.allSatisfy { group in
                !group.isEmpty && group.utf8.count <= 4 && group.allSatisfy(\.isHexDigit) && group.allSatisfy(\.isASCII)
            }
            return valid ? groups : nil
        }
        guard let head = groups(halves[0]), let tail = halves.count == 2 ? groups(halves[1]) : [] else { return false }
        let all = head + tail
        if halves.count == 2 { guard all.count < 8 else { return false } } else { guard all.count == 8 else { return false } }
        guard let last = all.last, UInt16(last, radix: 16) == 1 else { return false }
        return all.dropLast().allSatisfy { UInt16($0, radix: 16) == 0 }
    }
}
