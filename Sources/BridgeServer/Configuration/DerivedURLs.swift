import SignInProtocol

/// The URLs a configuration may leave out because they follow from other keys, filled in on the configuration tree
/// (after environment and command-line overrides, before the schema): the issuer from the listening address, and
/// every WOPI URL the bootstrap advertises from the issuer. So one `--port` (or `SIGNIN_BRIDGE_PORT`) moves them all.
enum DerivedURLs {
    /// Where each derived WOPI URL lives below the issuer.
    static let ecosystemPath = "/wopi/ecosystem?access_token={access_token}"
    static let rootContainerPath = "/wopi/containers/root?access_token={access_token}"
    static let wopiSrcPath = "/wopi/files/"
    static let rootContainerName = "Files"

    /// Named in schema errors about a value this type filled in.
    static let fromListen = "derived from listen"
    static let source = "derived from issuer"

    static func apply(to tree: inout ConfigNode) {
        if tree["issuer"] == nil, let issuer = issuer(listen: tree["listen"]) {
            tree.set(ConfigNode(.string(issuer), source: fromListen), at: ["issuer"])
        }
        guard case .string(let issuer) = tree["issuer"]?.value else { return }
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        let wopi = tree["wopi"]
        if wopi?["ecosystemUrlTemplate"] == nil {
            tree.set(ConfigNode(.string(base + ecosystemPath), source: source), at: ["wopi", "ecosystemUrlTemplate"])
        }
        if wopi?["rootContainer"] == nil {
            tree.set(ConfigNode(.string(rootContainerName), source: source), at: ["wopi", "rootContainer", "name"])
        }
        if wopi?["rootContainer"]?["urlTemplate"] == nil {
            tree.set(ConfigNode(.string(base + rootContainerPath), source: source), at: ["wopi", "rootContainer", "urlTemplate"])
        }
        if wopi?["wopiSrcPrefixes"] == nil {
            tree.set(
                ConfigNode(.array([ConfigNode(.string(base + wopiSrcPath), source: source)]), source: source),
                at: ["wopi", "wopiSrcPrefixes"])
        }
    }

    /// `http://HOST:PORT` of the listening address; a wildcard address (`0.0.0.0`, `::`) is reached on loopback.
    /// Nil when `listen` is not a host and a port (the schema then says what is wrong).
    static func issuer(listen: ConfigNode?) -> String? {
        guard case .string(let host) = listen?["host"]?.value, case .integer(let port) = listen?["port"]?.value
        else { return nil }
        return issuer(host: host, port: port)
    }

    static func issuer(host: String, port: Int) -> String { "http://\(urlHost(host)):\(port)" }

    /// Listening on every address, loopback included.
    static func isWildcard(_ host: String) -> Bool { ["0.0.0.0", "::", "[::]", ""].contains(host) }

    /// An IPv6 address in brackets (RFC 3986 §3.2.2); the wildcard addresses as their loopback counterparts.
    static func urlHost(_ host: String) -> String {
        switch host {
        case "0.0.0.0", "": return "127.0.0.1"
        case "::", "[::]": return "[::1]"
        default: return host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        }
    }
}
