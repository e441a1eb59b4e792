import Foundation
import HTTPTypes

/// The request a reverse proxy holds and asks about, as its sub-request describes it: nginx `auth_request` sends
/// what its configuration sets (`X-Original-URI`, `X-Original-Method`, docs/wopi-hosts.md), Traefik ForwardAuth
/// `X-Forwarded-Uri`, `X-Forwarded-Method` and `X-Forwarded-Host`, and Envoy's HTTP `ext_authz` the original method
/// and path itself, below its `path_prefix` (`/wopi/auth/wopi/files/…`).
struct ForwardedWopiRequest: Sendable, Hashable {
    /// Path and query of the original request, as it arrived (`$request_uri`): nil when the proxy did not say.
    var originalURI: String?
    var method: String
    var forwardedHost: String?
    var authorization: String?
    /// A field sent more than once: the proxy and the client both set it, and this server does not guess which.
    var repeatedField: String?

    static let originalURI = HTTPField.Name("X-Original-URI")!
    static let originalMethod = HTTPField.Name("X-Original-Method")!
    static let forwardedURI = HTTPField.Name("X-Forwarded-Uri")!
    static let forwardedMethod = HTTPField.Name("X-Forwarded-Method")!
    static let forwardedHost = HTTPField.Name("X-Forwarded-Host")!

    init(originalURI: String?, method: String, forwardedHost: String? = nil, authorization: String? = nil) {
        self.originalURI = originalURI
        self.method = method
        self.forwardedHost = forwardedHost
        self.authorization = authorization
    }

    /// `path` is the sub-request's own path and query, `method` its own method: Envoy's original request when no
    /// field names another.
    init(headers: HTTPFields, path: String, method: String) {
        var repeated: String?
        func one(_ name: HTTPField.Name) -> String? {
            let values = headers[values: name]
            if values.count > 1 { repeated = repeated ?? name.rawName }
            return values.first
        }
        let envoyPath = path.hasPrefix(WopiForwardAuthEndpoint.path + "/")
            ? String(path.dropFirst(WopiForwardAuthEndpoint.path.count)) : nil
        self.init(
            originalURI: one(Self.originalURI) ?? one(Self.forwardedURI) ?? envoyPath,
            method: one(Self.originalMethod) ?? one(Self.forwardedMethod) ?? method,
            forwardedHost: one(Self.forwardedHost), authorization: one(.authorization))
        repeatedField = repeated
    }
}
