import Foundation
import SignInProtocol

/// The calls to the host's provider: its discovery document (kept, fetched again after `metadataLifetime`, the old
/// one used while the provider cannot be reached), its JWKS (`RemoteKeySet`: known keys keep working while it is
/// down, an unknown `kid` waits at most a second), RFC 7662 introspection and UserInfo. Every call goes through
/// `UpstreamHTTP` (no redirects, a timeout, a size limit).
actor IdentityProviderConnection {
    let settings: IdentityProviderSettings
    let profile: IdentityProviderProfile
    let http: UpstreamHTTP
    let keys: RemoteKeySet
    /// `introspection.clientSecret`, or the environment variable `clientSecretEnvironment` names, read at start.
    let introspectionSecret: String?
    let timeoutSeconds = 10
    /// How long a discovery document is used before it is fetched again.
    let metadataLifetime: Duration = .seconds(3600)
    /// After a failed discovery, how long requests are answered from that failure rather than asking again.
    let retryFloor: Duration = .seconds(5)

    private var metadataCache: (document: ProviderMetadata, fetchedAt: ContinuousClock.Instant)?
    private var lastFailure: (reason: String, at: ContinuousClock.Instant)?

    /// Where calls and kept verdicts are counted (`IdentityProviderMetrics`); read without the actor.
    nonisolated let events: @Sendable (IdentityProviderMetrics.Event) -> Void

    init(
        settings: IdentityProviderSettings, http: UpstreamHTTP, keys: RemoteKeySet, environment: [String: String],
        events: @escaping @Sendable (IdentityProviderMetrics.Event) -> Void = { _ in }
    ) {
        self.events = events
        self.settings = settings
        self.profile = IdentityProviderProfile.named(settings.profile)
        self.http = http
        self.keys = keys
        let introspection = settings.introspection
        introspectionSecret = introspection?.clientSecret ?? introspection?.clientSecretEnvironment.flatMap { environment[$0] }
    }

    /// The discovery document, fetched now when none is kept or it is old.
    func metadata() async throws(ExternalTokenRejection) -> ProviderMetadata {
        let now = ContinuousClock.now
        if let metadataCache, now - metadataCache.fetchedAt < metadataLifetime { return metadataCache.document }
        if let lastFailure, now - lastFailure.at < retryFloor {
            if let metadataCache { return metadataCache.document }
            throw .unavailable(lastFailure.reason)
        }
        do {
            let document = try await fetchMetadata()
            metadataCache = (document, .now)
            lastFailure = nil
            events(.discovery(loaded: true, reason: nil))
            return document
        } catch {
            lastFailure = ("\(error)", .now)
            events(.discovery(loaded: false, reason: "\(error)"))
            if let metadataCache { return metadataCache.document }
            throw .unavailable("\(error)")
        }
    }

    private func fetchMetadata() async throws -> ProviderMetadata {
        var problems: [String] = []
        for url in IdentityProviderDiscovery.candidateURLs(for: settings) {
            let answer: UpstreamHTTP.Answer
            do {
                answer = try await http.get(url, timeout: timeoutSeconds)
            } catch {
                problems.append("\(error)")
                continue
            }
            guard answer.status == 200,
                let document = try? JSONDecoder().decode(ProviderMetadata.self, from: Data(answer.body))
            else {
                problems.append("\(url) answered \(answer.status) without a discovery document")
                continue
            }
            // OpenID Connect Discovery §4.3 and RFC 8414 §3.3: the document must name the issuer asked about.
            guard profile.acceptsDiscoveredIssuer(document.issuer, configured: settings.issuer) else {
                throw UpstreamFailure(.issuerMismatch, "\(url) names issuer \(document.issuer.prefix(100))")
            }
            return document
        }
        throw UpstreamFailure(.badResponse, problems.joined(separator: "; "))
    }

    /// Verifies a JWS against the provider's keys.
    func verifySignature(of token: String, kid: String?) async throws(ExternalTokenRejection) {
        let document = try await metadata()
        guard let jwksURI = document.jwksURI else { throw .unavailable("the discovery document has no jwks_uri") }
        do throws(RemoteKeySet.Problem) {
            try await keys.verify(token, kid: kid, fetch: jwksFetch(jwksURI))
        } catch {
            switch error {
            case .unknownKey: throw .unknownKey
            case .badSignature: throw .badSignature
            case .unavailable(let why): throw .unavailable(why)
            }
        }
    }

    /// The JWKS read `RemoteKeySet` calls when it needs the keys.
    private func jwksFetch(_ jwksURI: String) -> @Sendable () async throws -> RemoteKeySet.Fetched {
        let (http, timeout) = (self.http, timeoutSeconds)
        return {
            let jwks = try await http.get(jwksURI, timeout: timeout)
            guard jwks.status == 200 else { throw UpstreamFailure(.badResponse, "\(jwksURI) answered \(jwks.status)") }
            return RemoteKeySet.Fetched(body: jwks.body, cacheControl: jwks.cacheControl)
        }
    }

    /// RFC 7662 §2.1: the token posted with `token_type_hint=access_token`, the client authenticated with HTTP Basic.
    func introspect(_ token: String) async throws(ExternalTokenRejection) -> [String: ClaimValue] {
        guard let introspection = settings.introspection, let secret = introspectionSecret else {
            throw .unavailable("introspection has no client secret")
        }
        guard let endpoint = try await metadata().introspectionEndpoint else {
            throw .unavailable("the discovery document has no introspection_endpoint")
        }
        var form = FormParameters()
        form.append("token", token)
        form.append("token_type_hint", "access_token")
        let answer: UpstreamHTTP.Answer
        do {
            answer = try await http.postForm(endpoint, form, basic: (introspection.clientId, secret), timeout: timeoutSeconds)
        } catch {
            events(.introspection(outcome: "failed", reason: "\(error)"))
            throw .unavailable("\(error)")
        }
        // A 401 is our client refused: the provider's configuration, not the token's fault.
        guard answer.status == 200, let members = try? JSONDecoder().decode([String: ClaimValue].self, from: Data(answer.body))
        else {
            events(.introspection(outcome: "failed", reason: "introspection answered \(answer.status)"))
            throw .unavailable("introspection answered \(answer.status)")
        }
        events(.introspection(outcome: members["active"] == .bool(true) ? "active" : "inactive", reason: nil))
        return members
    }

    /// UserInfo with the token itself (OpenID Connect Core §5.3.1); nil when the provider has none or refuses it.
    func userInfo(_ token: String) async -> [String: ClaimValue]? {
        guard let endpoint = try? await metadata().userinfoEndpoint else { return nil }
        guard let answer = try? await http.get(endpoint, bearer: token, timeout: timeoutSeconds), answer.status == 200,
            let claims = try? JSONDecoder().decode([String: ClaimValue].self, from: Data(answer.body))
        else {
            events(.userInfo(ok: false))
            return nil
        }
        events(.userInfo(ok: true))
        return claims
    }
}

extension IdentityProviderConnection {
    /// The connection for `identityProvider`, over the server's one upstream HTTP client; nil in the embedded mode.
    static func make(
        configuration: BridgeConfiguration, providers: UpstreamProviders, metrics: BridgeMetrics?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> IdentityProviderConnection? {
        guard let settings = configuration.identityProvider, let client = providers.client else { return nil }
        let keyEvents = metrics.map { KeySetMetrics(source: "identityProvider", metrics: $0) }
        let calls = metrics.map { IdentityProviderMetrics(metrics: $0) }
        return IdentityProviderConnection(
            settings: settings, http: UpstreamHTTP(client: client),
            keys: RemoteKeySet(events: { event in keyEvents?.record(event) }), environment: environment,
            events: { event in calls?.record(event) })
    }

    /// Nil once the provider's JWKS is loaded; else why not. Loads it when it never was (readiness asks early).
    func keysProblem() async -> String? {
        if await keys.hasKeys { return nil }
        let document: ProviderMetadata
        do {
            document = try await metadata()
        } catch {
            return "the identity provider's discovery document cannot be read: \(error)"
        }
        guard let jwksURI = document.jwksURI else {
            return settings.introspection == nil ? "the discovery document has no jwks_uri" : nil
        }
        // A token with a made-up kid loads the set (RemoteKeySet fetches for any kid it does not know).
        _ = try? await keys.verify("readiness.probe.token", kid: "\u{0}readiness", fetch: jwksFetch(jwksURI))
        return await keys.hasKeys ? nil : "the identity provider's keys (\(jwksURI.prefix(200))) are not loaded"
    }
}
