import Foundation

extension WopiSourcePrefixes {
    /// The file endpoints' sub-resources in Microsoft's WOPI REST API ("Files" endpoints: `/files/{id}/contents`,
    /// `/files/{id}/ancestry`, `/files/{id}/ecosystem_pointer`); each names the same file as `/files/{id}`.
    static let fileSubresources: Set<Substring> = ["contents", "ancestry", "ecosystem_pointer"]

    /// The WopiSrc a proxied request's path names: `<prefix>/<id>` for `<prefix's path>/<id>` and for a file
    /// sub-resource below it; nil for a path that names no file under exactly one prefix. `forwardedHost`
    /// (`X-Forwarded-Host`, port aside, since proxies differ in whether they send it) must then be the prefix's host,
    /// and tells prefixes with one path on several hosts apart; without it such a path names none of them.
    func fileSource(path: Substring, forwardedHost: String?) -> String? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        let host = forwardedHost.map(Self.hostName)
        var found: [String] = []
        // The same rule as a bootstrap's WopiSrc (`contains`) for the one segment not taken from the configuration:
        // no dot segments, encoded slashes or controls in the file id.
        for prefix in prefixes where host == nil || host == prefix.origin.host {
            let count = prefix.pathSegments.count
            let isFile = segments.count == count + 1
                || (segments.count == count + 2 && Self.fileSubresources.contains(segments[count + 1]))
            guard isFile, zip(prefix.pathSegments, segments).allSatisfy({ $0 == $1 }), Self.isPlainSegment(segments[count])
            else { continue }
            found.append(prefix.text + "/" + segments[count])
        }
        return found.count == 1 ? found[0] : nil
    }

    /// `host[:port]` or `[v6]:port` (RFC 9110 §7.2) without the port, in lower case as `WebOrigin` keeps hosts.
    private static func hostName(_ field: String) -> String {
        let value = field.lowercased()
        if value.hasPrefix("["), let end = value.firstIndex(of: "]") { return String(value[...end]) }
        return String(value.prefix { $0 != ":" })
    }
}
