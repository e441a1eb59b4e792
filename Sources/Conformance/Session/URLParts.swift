import Foundation
import SignInProtocol

/// The few URL operations the suite needs, on strings (redirect URIs may use custom schemes `URL` dislikes).
enum URLParts {
    /// `scheme://host[:port]` of an absolute http(s) URL.
    static func origin(_ url: String) -> String? {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme, let host = parts.host else { return nil }
        let port = parts.port.map { ":\($0)" } ?? ""
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme.lowercased())://\(shownHost)\(port)"
    }

    /// The query (after `?`, before `#`), or nil.
    static func query(_ url: String) -> String? {
        guard let question = url.firstIndex(of: "?") else { return nil }
        let rest = url[url.index(after: question)...]
        return String(rest.prefix { $0 != "#" })
    }

    /// `url` without query and fragment, and without one trailing `/` after the authority.
    static func base(_ url: String) -> String {
        var base = String(url.prefix { $0 != "?" && $0 != "#" })
        if base.hasSuffix("/"), base.filter({ $0 == "/" }).count == 3 { base.removeLast() }
        return base
    }

    /// True when `location` is `redirectURI` with only a query or fragment added (RFC 6749 §3.1.2).
    static func isRedirect(_ location: String, to redirectURI: String) -> Bool {
        base(location).lowercased() == base(redirectURI).lowercased()
    }

    /// `reference` resolved against `base` (RFC 3986 §5).
    static func resolve(_ reference: String, against base: String) -> String {
        guard let baseURL = URL(string: base), let resolved = URL(string: reference, relativeTo: baseURL) else {
            return reference
        }
        return resolved.absoluteString
    }

    /// `url` with `fields` appended to its query.
    static func appending(_ fields: [(String, String)], to url: String) -> String {
        guard !fields.isEmpty else { return url }
        return url + (url.contains("?") ? "&" : "?") + FormEncoding.query(fields)
    }

    /// Plain http to a loopback host, by the project's one rule (`LoopbackHost`): `127.0.0.0/8`, `::1`, `localhost`,
    /// and not a name that merely starts like one (`127.evil.example`).
    static func isLoopbackHTTP(_ url: String) -> Bool {
        guard let parts = URLComponents(string: url), parts.scheme?.lowercased() == "http" else { return false }
        let host = parts.host.map { $0.hasPrefix("[") && $0.hasSuffix("]") ? String($0.dropFirst().dropLast()) : $0 }
        return LoopbackHost.isLoopback(host)
    }
}
