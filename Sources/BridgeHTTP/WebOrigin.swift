import Foundation

/// The origin of an http(s) URL (RFC 6454 §4): scheme and host lower-cased (RFC 3986 §6.2.2.1), the port with the
/// scheme's default filled in, so `HTTPS://Host.Example:443` and `https://host.example` are one origin. The host is
/// compared as written (an IDN as punycode): `URLComponents.encodedHost` reads it without loading ICU's IDNA tables
/// (1.2 MiB resident), which `URLComponents.host` would, to decode it. User info is refused: it has no place in the
/// URLs this server compares (RFC 9110 §4.2.4 deprecates it for http(s)).
package struct WebOrigin: Hashable, Sendable, CustomStringConvertible {
    package let scheme: String
    package let host: String
    package let port: Int

    /// The components as parsed, so callers that need the path do not parse the URL twice.
    package init?(_ components: URLComponents) {
        guard let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = components.encodedHost?.lowercased(), !host.isEmpty, components.user == nil
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = components.port ?? (scheme == "https" ? 443 : 80)
    }

    package init?(url: String) {
        guard let components = URLComponents(string: url) else { return nil }
        self.init(components)
    }

    package var description: String { "\(scheme)://\(host):\(port)" }
}
