import BridgeHTTP
import Foundation
import SignInProtocol

/// The rules a JSON Schema cannot say: URL semantics, cross-field consistency, uniqueness by key. Each error names
/// its key path; warnings are printed but do not stop the server.
struct ConfigurationChecks {
    let lineOf: (String) -> Int?
    /// The issuer was left out and built from `listen` (`DerivedURLs`).
    let issuerDerived: Bool
    private(set) var errors: [ConfigurationProblem] = []
    private(set) var warnings: [ConfigurationProblem] = []

    /// The clock expiries are judged against.
    let now: () -> Date

    init(lineOf: @escaping (String) -> Int?, issuerDerived: Bool = false, now: @escaping () -> Date = { Date() }) {
        self.lineOf = lineOf
        self.issuerDerived = issuerDerived
        self.now = now
    }

    mutating func run(_ config: BridgeConfiguration) {
        if issuerDerived {
            checkDerivedIssuer(config)
        } else {
            checkURL(config.issuer, at: "issuer", allowPath: true)
            checkIssuerMatchesListen(config)
        }
        if let issuer = URL(string: config.issuer), issuer.query != nil || issuer.fragment != nil {
            error("issuer", "must have no query or fragment (RFC 8414 §2)")
        }
        if let uri = config.office.authorizationUri { checkURL(uri, at: "office.authorizationUri", allowPath: true) }
        if let uri = config.office.tokenIssuanceUri { checkURL(uri, at: "office.tokenIssuanceUri", allowPath: true) }
        if let providerId = config.office.providerId, providerId.contains("_") {
            warning(
                "office.providerId",
                "Office documents letters and digits only; \"\(providerId)\" has `_` (accepted, as the docs' own examples do)")
        }
        for (index, challenge) in (config.office.additionalChallenges ?? []).enumerated() {
            let scheme = challenge.prefix { $0 != " " }
            if scheme.lowercased() == "bearer" {
                error(
                    "office.additionalChallenges[\(index)]",
                    "must not be a Bearer challenge: the one Bearer challenge is built from the office settings")
            }
        }
        checkTemplate(config.wopi.ecosystemUrlTemplate, at: "wopi.ecosystemUrlTemplate")
        checkTemplate(config.wopi.rootContainer.urlTemplate, at: "wopi.rootContainer.urlTemplate")
        checkEcosystemHost(config)
        for (index, prefix) in config.wopi.wopiSrcPrefixes.enumerated() {
            checkURL(prefix, at: "wopi.wopiSrcPrefixes[\(index)]", allowPath: true)
        }
        checkClients(config.clients)
        checkClientAttestation(config)
        if config.signingKeys.publishBeforeSigningSeconds < BridgeRoutes.cacheMaxAgeSeconds {
            warning(
                "signingKeys.publishBeforeSigningSeconds",
                "is shorter than the JWKS cache lifetime (max-age=\(BridgeRoutes.cacheMaxAgeSeconds)): a relying party may "
                    + "not know a new key when it starts signing")
        }
        checkUsers(config.users)
        checkUpstreams(config)
        checkIdentityProvider(config)
        for (index, proxy) in config.listen.trustedProxies.enumerated() where IPAddressRange(proxy) == nil {
            error("listen.trustedProxies[\(index)]", "expected an IP address or CIDR block (10.0.0.0/8, fd00::/8), got \"\(proxy)\"")
        }
    }

    /// A derived issuer is plain http, so only a loopback listening address can give one (RFC 6749 §3.1 wants TLS).
    private mutating func checkDerivedIssuer(_ config: BridgeConfiguration) {
        let host = config.listen.host
        if !LoopbackHost.isLoopback(host) && !DerivedURLs.isWildcard(host) {
            error("issuer", "is required when listen.host (\(host)) is not a loopback address: set the public https origin")
        } else if config.listen.port == 0 {
            warning(
                "issuer", "is derived from the listening address, whose port 0 is picked at start: \(config.issuer) "
                    + "names no usable port; set issuer")
        }
    }

    /// An explicit plain-http loopback issuer is this server's own address (no TLS proxy in front), so it should be
    /// where the server listens; said once at start, naming both, since every advertised URL follows the issuer.
    private mutating func checkIssuerMatchesListen(_ config: BridgeConfiguration) {
        guard config.issuer.lowercased().hasPrefix("http:"), let issuer = URL(string: config.issuer),
            LoopbackHost.isLoopback(issuer.host)
        else { return }
        let listenHost = config.listen.host
        let sameHost = LoopbackHost.isLoopback(listenHost) || DerivedURLs.isWildcard(listenHost)
        guard !sameHost || (issuer.port ?? 80) != config.listen.port else { return }
        warning(
            "issuer",
            "\(config.issuer) is not the listening address \(DerivedURLs.issuer(host: listenHost, port: config.listen.port)): "
                + "every advertised URL follows the issuer; leave issuer out to derive it from listen")
    }

    private mutating func checkClients(_ clients: [BridgeConfiguration.Client]) {
        var seen = Set<String>()
        for (index, client) in clients.enumerated() {
            let path = "clients[\(index)]"
            if !seen.insert(client.id).inserted { error("\(path).id", "repeats the client id \"\(client.id)\"") }
            if client.public {
                if client.secretHash != nil || client.secrets != nil {
                    let key = client.secretHash != nil ? "secretHash" : "secrets"
                    error("\(path).\(key)", "a public client has no secret (RFC 8252 §8.4); remove it or set public: false")
                }
                if client.grants.contains(.clientCredentials) {
                    error("\(path).grants", "client_credentials needs a confidential client (RFC 6749 §4.4)")
                }
                if client.wopiServer {
                    // RFC 7662 §2.1: the introspection endpoint requires the caller to authenticate.
                    error(
                        "\(path).wopiServer",
                        "a WOPI server introspects tokens and must authenticate; set public: false and give it a secret")
                }
            } else if client.allSecrets.isEmpty && !client.requiresAttestation {
                error(
                    "\(path).secretHash",
                    "is required for a confidential client (or secrets, or attestation.required, or set public: true)")
            }
            checkSecrets(client, at: path)
            if client.grants.contains(.refreshToken) && !client.grants.contains(.authorizationCode) {
                error("\(path).grants", "refresh_token is only issued with authorization_code")
            }
            if client.grants.contains(.tokenExchange) && client.merchant == nil && client.ssoGroup == nil {
                // Token exchange only moves a user between clients of one merchant or SSO group: without one it could
                // never work.
                error("\(path).merchant", "(or ssoGroup) is required for the token-exchange grant (RFC 8693)")
            }
            if let defaults = client.defaultScopes {
                if defaults.contains(OpenIDScope.openid) {
                    // OpenID Connect Core §3.1.2.1: an OpenID request is one that asks for openid itself.
                    error("\(path).defaultScopes", "must not contain openid: a request without scope is no OpenID request")
                }
                for scope in defaults where !client.scopes.contains(scope) {
                    error("\(path).defaultScopes", "'\(scope)' is not one of the client's scopes")
                }
            }
            if client.scopes.contains(NativeSSO.scope) && client.ssoGroup == nil {
                error("\(path).scopes", "device_sso needs the client's ssoGroup (OpenID Connect Native SSO draft 07 §3.1)")
            }
            if let override = client.tokenEndpointOverride {
                checkURL(override, at: "\(path).tokenEndpointOverride", allowPath: true)
            }
            for (uriIndex, uri) in client.redirectUris.enumerated() {
                checkRedirectURI(
                    uri, at: "\(path).redirectUris[\(uriIndex)]", publicClient: client.public, profile: client.profile)
            }
            checkAppToApp(client, at: path, clients: clients)
        }
    }

    /// Every attester's keys can be read and verified with; a client that requires attestation has an attester to
    /// be attested by (draft-ietf-oauth-attestation-based-client-auth-11 §9.8 leaves trust to configuration).
    private mutating func checkClientAttestation(_ config: BridgeConfiguration) {
        do throws(ClientAttesters.Problem) {
            _ = try ClientAttesters(configuration: config.clientAttestation)
        } catch {
            self.error(error.keyPath, error.message)
        }
        let clientIDs = Set(config.clients.map(\.id))
        for (index, attester) in config.clientAttestation.attesters.enumerated() {
            let path = "clientAttestation.attesters[\(index)]"
            guard let clients = attester.clients else {
                // §9.8: trust in an attester is the deployment's to scope; unscoped, it vouches for every secretless client.
                warning(path, "has no clients list: it may vouch for every client without a secret; name the client_ids it attests")
                continue
            }
            for id in clients where !clientIDs.contains(id) {
                error("\(path).clients", "names '\(id)', which is not a configured client")
            }
        }
        guard config.clientAttestation.attesters.isEmpty else { return }
        for (index, client) in config.clients.enumerated() where client.requiresAttestation {
            error("clients[\(index)].attestation.required", "needs clientAttestation.attesters: no attestation could pass")
        }
    }

    /// Two live secrets are what a rotation needs (old and new); an expired one is refused at the token endpoint, so
    /// it only waits to be removed.
    private mutating func checkSecrets(_ client: BridgeConfiguration.Client, at path: String) {
        let offset = client.secretHash == nil ? 0 : 1
        for (index, secret) in client.allSecrets.enumerated() {
            guard let expiresAt = secret.expiresAt else { continue }
            let key = "\(path).secrets[\(index - offset)].expiresAt"
            if secret.expiryDate == nil {
                error(key, "\(expiresAt) is not a valid UTC time (YYYY-MM-DDTHH:MM:SSZ)")
            } else if secret.isExpired(at: now()) {
                warning(key, "the secret expired at \(expiresAt) and is refused; remove it")
            }
        }
        let live = client.allSecrets.filter { !$0.isExpired(at: now()) }.count
        if live > 2 {
            warning("\(path).secrets", "\(live) live secrets; two are enough to rotate (add the new, switch the partner, remove the old)")
        }
    }

    /// An app-to-app client names approvers that exist and are first-party (the host's own apps), and has both
    /// URIs the flow needs (Simple Login, `appToAppV2`, needs no `appCallbackUris`).
    private mutating func checkAppToApp(
        _ client: BridgeConfiguration.Client, at path: String, clients: [BridgeConfiguration.Client]
    ) {
        let approvers = client.appToAppApprovers ?? []
        for (index, approver) in approvers.enumerated() {
            guard let found = clients.first(where: { $0.id == approver }) else {
                error("\(path).appToAppApprovers[\(index)]", "names no configured client \"\(approver)\"")
                continue
            }
            if !found.firstParty {
                error("\(path).appToAppApprovers[\(index)]", "\"\(approver)\" must be a first-party client (firstParty: true)")
            }
        }
        let callbacks = !(client.appCallbackUris ?? []).isEmpty
        if callbacks ? approvers.isEmpty : !approvers.isEmpty && !client.appToAppV2 {
            error("\(path).appCallbackUris", "app-to-app needs both appCallbackUris and appToAppApprovers")
        }
        if client.appToAppV2 && approvers.isEmpty {
            error("\(path).appToAppApprovers", "appToAppV2 needs the apps that approve (appToAppApprovers)")
        }
    }

    /// Upstream ids are unique and cannot be mistaken for the fixed `/auth/…` routes; an app-to-app upstream has
    /// its `app_callback_uri`; the broker's client exists, is public (a native app, RFC 8252 §8.4) and has deep links.
    private mutating func checkUpstreams(_ config: BridgeConfiguration) {
        var seen = Set<String>()
        for (index, upstream) in config.upstreams.enumerated() {
            let path = "upstreams[\(index)]"
            if !seen.insert(upstream.id).inserted { error("\(path).id", "repeats the upstream id \"\(upstream.id)\"") }
            if ["health", "session", "upstream"].contains(upstream.id) {
                error("\(path).id", "\"\(upstream.id)\" is taken by a route under /auth/")
            }
            checkURL(upstream.issuer, at: "\(path).issuer", allowPath: true)
            if !upstream.scopes.contains("openid") {
                error("\(path).scopes", "must contain openid (OpenID Connect Core §3.1.2.1)")
            }
            if upstream.appToApp && upstream.appCallbackUri == nil {
                error("\(path).appCallbackUri", "is required with appToApp: true (requested_flow=app_to_app)")
            }
        }
        guard let clientID = config.broker.clientId else { return }
        guard let client = config.clients.first(where: { $0.id == clientID }) else {
            return error("broker.clientId", "names no configured client \"\(clientID)\"")
        }
        if !client.public { error("broker.clientId", "\"\(clientID)\" must be a public client (a native app)") }
        if config.upstreams.isEmpty { error("broker.clientId", "the broker needs at least one upstream") }
    }

    /// Registration rules of SignInProtocol's `RedirectURIPolicy` (RFC 6749 §3.1.2, RFC 8252 §7, RFC 9700 §2.1):
    /// public clients are native apps, confidential ones web servers; `profile: office` excuses exactly Office's
    /// `https://localhost` (`ClientProfile`), any other client registering it gets a warning.
    private mutating func checkRedirectURI(_ uri: String, at path: String, publicClient: Bool, profile: ClientProfile) {
        let assessment = RedirectURIPolicy().assessRegistration(uri, for: publicClient ? .native : .web, profile: profile)
        for problem in assessment.errors { error(path, problem.description) }
        for problem in assessment.warnings { warning(path, problem.description) }
    }

    private mutating func checkUsers(_ users: [BridgeConfiguration.User]) {
        var ids = Set<String>()
        var names = Set<String>()
        for (index, user) in users.enumerated() {
            if !ids.insert(user.id).inserted { error("users[\(index)].id", "repeats the user id \"\(user.id)\"") }
            if !names.insert(user.signInName.lowercased()).inserted {
                error("users[\(index)].signInName", "repeats the sign-in name \"\(user.signInName)\" (compared ignoring case)")
            }
        }
    }

    /// An ecosystem URL on this server's own origin but another path is served by nobody: `EcosystemHost` serves
    /// only `<issuer>/wopi/ecosystem`, and the host's WOPI server is not behind this origin.
    private mutating func checkEcosystemHost(_ config: BridgeConfiguration) {
        guard case .hostWOPIServer(let url) = EcosystemHost(configuration: config),
            let origin = WebOrigin(url: url), origin == WebOrigin(url: config.issuer)
        else { return }
        warning(
            "wopi.ecosystemUrlTemplate",
            "\(url) is on this server's origin but is not \(config.issuerURL(path: EcosystemHost.path)): SignInBridge serves "
                + "CheckEcosystem only there; leave the key out to have it served, or point it at the host's WOPI server")
    }

    private mutating func checkTemplate(_ template: String, at path: String) {
        let sample = template.replacingOccurrences(of: "{access_token}", with: "TOKEN")
        checkURL(sample, at: path, allowPath: true)
    }

    /// An absolute http(s) URL with a host; plain http only for loopback hosts (development).
    private mutating func checkURL(_ string: String, at path: String, allowPath: Bool) {
        guard let url = URL(string: string), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty
        else { return error(path, "expected an absolute http(s) URL with a host, got \"\(string)\"") }
        if scheme == "http" && !LoopbackHost.isLoopback(host) {
            error(path, "use https; http is accepted only for loopback hosts (127.0.0.1, [::1], localhost)")
        }
    }

    mutating func error(_ keyPath: String, _ message: String) {
        errors.append(ConfigurationProblem(keyPath: keyPath, message: message, line: lineOf(keyPath)))
    }

    mutating func warning(_ keyPath: String, _ message: String) {
        warnings.append(ConfigurationProblem(keyPath: keyPath, message: message, line: lineOf(keyPath)))
    }
}
