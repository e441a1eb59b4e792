/// The rules for redirect URIs: which ones a client may register, and whether a request's `redirect_uri` is
/// one of them.
///
/// Registration and request time are separate on purpose: registration judges a URI on its own (RFC 8252 §7,
/// RFC 9700 §2.1), while a request is only ever compared with what was registered, by exact string match
/// (RFC 9700 §2.1) except for the port of a native app's loopback redirect (RFC 8252 §7.3).
public struct RedirectURIPolicy: Sendable, Hashable {
    /// What kind of client the URIs belong to: only native apps get private-use schemes and the loopback
    /// port exemption.
    public enum ClientKind: String, Sendable, Hashable, Codable, CaseIterable {
        /// An app on the user's device (RFC 8252): a public client.
        case native
        /// A web server application.
        case web
    }

    /// When true (the default), a private-use scheme without a `.` is an error; when false, a warning. RFC 8252
    /// §7.1 asks for reverse-domain schemes, but some providers (Vipps' own example `merchantapp://`) use
    /// plain ones.
    public var requireReverseDomainScheme: Bool

    public init(requireReverseDomainScheme: Bool = true) {
        self.requireReverseDomainScheme = requireReverseDomainScheme
    }

    // MARK: Registration time

    /// One thing wrong with, or worth knowing about, a redirect URI.
    public enum Problem: Sendable, Hashable, CustomStringConvertible {
        /// Not an absolute URI with a scheme (RFC 6749 §3.1.2).
        case notAbsolute
        /// A `#fragment` is not allowed (RFC 6749 §3.1.2).
        case hasFragment
        /// `*` is not allowed: patterns open the door to open redirectors (RFC 9700 §4.1.1).
        case hasWildcard
        /// `user:password@` in the authority.
        case hasUserInfo
        /// `http` other than to a loopback host (RFC 9700 §2.6, RFC 8252 §8.3).
        case plainHTTP(host: String)
        /// An `http` or `https` URI without a host.
        case missingHost
        /// A private-use scheme without a `.` (RFC 8252 §7.1 wants reverse domain names, `com.example.app:`).
        case schemeNotReverseDomain(String)
        /// A private-use scheme on a web client: only apps on the device can receive it.
        case privateSchemeForWebClient(String)
        /// A loopback redirect (IP literal or `localhost`) on a web client: it reaches whatever runs on the user's
        /// machine, so it is for development only.
        case loopbackForWebClient
        /// `localhost` is NOT RECOMMENDED: it may resolve elsewhere; use `127.0.0.1` or `[::1]` (RFC 8252 §8.3).
        case localhostNotRecommended

        public enum Severity: String, Sendable, Hashable, Codable { case error, warning }

        public var description: String {
            switch self {
            case .notAbsolute: "a redirect URI must be absolute, with a scheme (RFC 6749 §3.1.2)"
            case .hasFragment: "a redirect URI must not contain a fragment (RFC 6749 §3.1.2)"
            case .hasWildcard: "a redirect URI must not contain '*': it is matched exactly (RFC 9700 §2.1)"
            case .hasUserInfo: "a redirect URI must not contain user information"
            case .plainHTTP(let host): "http is only allowed to a loopback host (127.0.0.1, [::1], localhost), not '\(host)'; use https (RFC 9700 §2.6)"
            case .missingHost: "an http(s) redirect URI needs a host"
            case .schemeNotReverseDomain(let scheme): "private-use scheme '\(scheme)' should be a reverse domain name such as com.example.app (RFC 8252 §7.1)"
            case .privateSchemeForWebClient(let scheme): "private-use scheme '\(scheme)' is only for native apps (RFC 8252 §7.1)"
            case .loopbackForWebClient: "a loopback redirect URI on a confidential client is for development only; register the https origin for production (RFC 8252 §7.3 gives loopback to native apps)"
            case .localhostNotRecommended: "'localhost' is not recommended; use 127.0.0.1 or [::1] (RFC 8252 §8.3)"
            }
        }
    }

    /// The problems of one URI with their severities; usable when it has no errors.
    public struct Assessment: Sendable, Hashable {
        public let uri: String
        public let problems: [Problem]
        let policy: RedirectURIPolicy

        public func severity(of problem: Problem) -> Problem.Severity {
            switch problem {
            // A web server on the developer's own machine is a normal development setup, and the client's secret
            // still guards the code; so loopback on a confidential client is worth a warning, not a refusal.
            case .localhostNotRecommended, .loopbackForWebClient: .warning
            case .schemeNotReverseDomain: policy.requireReverseDomainScheme ? .error : .warning
            default: .error
            }
        }

        public var errors: [Problem] { problems.filter { severity(of: $0) == .error } }
        public var warnings: [Problem] { problems.filter { severity(of: $0) == .warning } }
        public var isAcceptable: Bool { errors.isEmpty }
    }

    /// Judges a URI a client wants to register.
    /// `profile` may excuse a documented deviation (`ClientProfile.office`); `strict` excuses nothing.
    public func assessRegistration(_ uri: String, for client: ClientKind, profile: ClientProfile = .strict) -> Assessment {
        Assessment(uri: uri, problems: problems(of: uri, for: client).filter { !profile.excuses($0, of: uri) }, policy: self)
    }

    func problems(of uri: String, for client: ClientKind) -> [Problem] {
        let parts = URIComponents(uri)
        guard let scheme = parts.scheme, URIComponents.isValidScheme(scheme) else { return [.notAbsolute] }
        var problems = [Problem]()
        if parts.fragment != nil { problems.append(.hasFragment) }
        if uri.contains("*") { problems.append(.hasWildcard) }
        if parts.hasUserInfo { problems.append(.hasUserInfo) }
        let lowerScheme = scheme.asciiLowercased()
        if lowerScheme == "http" || lowerScheme == "https" {
            guard let host = parts.host, !host.isEmpty else { return problems + [.missingHost] }
            let loopback = LoopbackHost(host)
            if lowerScheme == "http" && loopback == nil {
                problems.append(.plainHTTP(host: String(host)))
            }
            // One loopback rule (RFC 8252 §7.3, §8.3): IP literals and `localhost` alike are for native apps only;
            // among those, `localhost` is allowed but not recommended.
            if loopback != nil && client == .web { problems.append(.loopbackForWebClient) }
            if loopback == .localhostName && client == .native { problems.append(.localhostNotRecommended) }
        } else {
            if client == .web { problems.append(.privateSchemeForWebClient(String(scheme))) }
            if !scheme.contains(".") { problems.append(.schemeNotReverseDomain(String(scheme))) }
        }
        return problems
    }

    // MARK: Request time

    /// Why a request's `redirect_uri` was refused. The server must then show the error itself and never
    /// redirect (RFC 6749 §4.1.2.1).
    public enum Mismatch: Error, Sendable, Hashable, CustomStringConvertible {
        /// The request has no `redirect_uri` and the client registered several (or none), so none can be chosen.
        case missing
        /// The request's `redirect_uri` is not one of the registered ones.
        case notRegistered(String)

        public var oauthError: OAuthError { OAuthError(.invalidRequest, description: description) }

        public var description: String {
            switch self {
            case .missing: "redirect_uri is required for this client"
            case .notRegistered: "redirect_uri is not registered for this client"
            }
        }
    }

    /// The URI to redirect to for a request: the requested one when it matches a registered one, or the only
    /// registered one when the request names none (RFC 6749 §3.1.2.3) and `requireInRequest` is false.
    ///
    /// Matching is exact, byte for byte: case, trailing `/` and percent-encoding all count (RFC 9700 §2.1).
    /// The one exception: for a native client, a registered `http://127.0.0.1…`, `http://[::1]…` or
    /// `http://localhost…` URI matches the same URI with any port, since the app picks a free port at run time
    /// (RFC 8252 §7.3); `localhost` is judged as the IP literals are, so registration and requests agree.
    /// The returned URI is the requested one (with its port), never a rewritten one.
    public func resolve(
        requested: String?, registered: [String], for client: ClientKind, requireInRequest: Bool = false
    ) throws(Mismatch) -> String {
        guard let requested, !requested.isEmpty else {
            if !requireInRequest, registered.count == 1, let only = registered.first { return only }
            throw .missing
        }
        if registered.contains(requested) { return requested }
        if client == .native {
            let candidate = URIComponents(requested)
            if Self.isLoopbackHTTP(candidate) {
                let withoutPort = candidate.withoutPort
                for uri in registered {
                    let registeredParts = URIComponents(uri)
                    if Self.isLoopbackHTTP(registeredParts), registeredParts.withoutPort == withoutPort,
                        candidate.port.map(Self.isValidPort) ?? true
                    {
                        return requested
                    }
                }
            }
        }
        throw .notRegistered(requested)
    }

    // MARK: Helpers

    /// Exactly `http` (lower case, as registered) to a loopback host (`LoopbackHost`: IP literal or `localhost`).
    static func isLoopbackHTTP(_ parts: URIComponents) -> Bool {
        parts.scheme == "http" && LoopbackHost.isLoopback(parts.host) && !parts.hasUserInfo
    }

    static func isValidPort(_ port: Substring) -> Bool {
        !port.isEmpty && port.count <= 5 && port.utf8.allSatisfy { (48...57).contains($0) } && (Int(port) ?? 70000) <= 65535
    }
}
