/// The `htu` comparison of RFC 9449 §4.3 step 9: the proof's URI and the request's, both without query and
/// fragment, after syntax-based and scheme-based normalisation (RFC 3986 §6.2.2, §6.2.3): scheme and host in lower
/// case, the scheme's default port dropped, an empty path as `/`, percent-encodings of unreserved characters decoded
/// and the others' hex digits in upper case, dot segments removed.
public enum DPoPTargetURI {
    /// The normalised form of an absolute http(s) URI without query and fragment; nil when `uri` is not one.
    public static func normalized(_ uri: String) -> String? {
        let parts = URIComponents(uri)
        guard let scheme = parts.scheme.map({ String($0).asciiLowercased() }), scheme == "https" || scheme == "http",
            let host = parts.host, !host.isEmpty, !parts.hasUserInfo
        else { return nil }
        var authority = String(host).asciiLowercased()
        if let port = parts.port, !port.isEmpty {
            guard port.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(port), number <= 65535 else {
                return nil
            }
            if number != (scheme == "https" ? 443 : 80) { authority += ":\(number)" }
        }
        guard let path = normalizedPath(parts.path) else { return nil }
        return scheme + "://" + authority + path
    }

    /// True when the proof's `htu` names the URI the request was sent to (§4.3 step 9).
    public static func matches(proof htu: String, request uri: String) -> Bool {
        guard let proof = normalized(htu), let request = normalized(uri) else { return false }
        return proof == request
    }

    /// RFC 3986 §6.2.2.2 (percent-encoding) and §5.2.4 (dot segments); nil for a broken percent-encoding.
    private static func normalizedPath(_ path: Substring) -> String? {
        var bytes: [UInt8] = []
        var input = Array(path.utf8)[...]
        let hex = Array("0123456789ABCDEF".utf8)
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard input.count >= 2, let high = PercentEncoding.hexValue(input[input.startIndex]),
                let low = PercentEncoding.hexValue(input[input.startIndex + 1])
            else { return nil }
            input = input.dropFirst(2)
            let decoded = high << 4 | low
            if PercentEncoding.isUnreserved(decoded) {
                bytes.append(decoded)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(high)], hex[Int(low)]]
            }
        }
        let segments = removingDotSegments(String(decoding: bytes, as: UTF8.self))
        return segments.isEmpty ? "/" : segments
    }

    private static func removingDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment {
            case ".": if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default: output.append(segment)
            }
        }
        return path.isEmpty ? "" : "/" + output.joined(separator: "/")
    }
}
