import BridgeHTTP
import BridgeStore
import Foundation
import SignInProtocol

/// The composition root: every service of one server, built exactly once from the configuration, the store, the
/// signing keys, the clock and the metrics. `BridgeServerApp` builds it; the route structs (`BridgeRoutes`,
/// `OAuthRoutes`, `OpenIDRoutes`) and the tests take their services from it and build none themselves.
struct BridgeServices: Sendable {
    let configuration: BridgeConfiguration
    let store: any Store
    let keys: SigningKeySet
    let metrics: BridgeMetrics
    let now: @Sendable () -> Date

    // Shared by several services: one instance each, so the caches inside them (`RecentAnswers`) are shared too.
    let accessTokenVerifier: AccessTokenVerifier
    let accessTokens: AccessTokenIssuer
    let idTokens: IDTokenIssuer
    let bearer: BearerTokenCheck
    /// DPoP proofs (RFC 9449): checks, the replay step, nonces; for the token endpoint and the resources.
    let dpop: DPoPProofs
    /// The one reader of request bodies, within `limits.maxBodyBytes`.
    let bodies: RequestBodyReader
    /// What the authorize endpoint and the interaction steps share (no pages: a step decides, never draws).
    let authorizeEnvironment: AuthorizeEnvironment
    /// What the page routes draw with: the pages, the cookies, the upstream links.
    let signInPages: SignInPages
    /// The client address of a sign-in, behind `listen.trustedProxies`.
    let clientAddress: ClientAddress
    let upstreams: UpstreamProviders

    // The token half.
    let token: TokenEndpoint
    let revocation: RevocationEndpoint
    let introspection: IntrospectionEndpoint
    let exchange: ExchangeEndpoint

    // The browser half and OpenID Connect.
    let authorize: AuthorizeEndpoint
    /// `POST /oauth2/par` (RFC 9126), and the authorization endpoint's taking of its `request_uri`.
    let pushedAuthorization: PushedAuthorizationEndpoint
    /// `POST /oauth2/authorize-challenge` (draft-ietf-oauth-first-party-apps-04), served when `firstPartyApps.enabled`.
    let authorizationChallenge: AuthorizationChallengeEndpoint
    let interaction: InteractionEndpoints
    let userInfo: UserInfoEndpoint
    let endSession: EndSessionEndpoint
    let sessionCodes: SessionCodeEndpoint
    let appToApp: AppToAppEndpoints
    let upstreamSignIn: UpstreamSignInEndpoints
    let broker: BrokerEndpoints

    // Office.
    let bootstrap: BootstrapService
    let wopiAccessTokens: WopiAccessTokenVerifier
    /// `GET /wopi/auth`: a reverse proxy's sub-request in front of a WOPI host (docs/wopi-hosts.md).
    let wopiForwardAuth: WopiForwardAuthEndpoint
    /// CheckEcosystem and GetRootContainer, routed only when this server is the ecosystem host (`EcosystemHost`).
    let ecosystem: EcosystemEndpoint
    /// `/health/ready`: the store and the signing keys (`ReadinessChecks`), and the host provider's keys.
    let readiness: ReadinessChecks
    /// The host's own provider (`identityProvider`); nil in the embedded mode.
    let identityProvider: IdentityProviderConnection?

    init(
        configuration: BridgeConfiguration, store: any Store, keys: SigningKeySet, metrics: BridgeMetrics,
        now: @escaping @Sendable () -> Date
    ) {
        self.configuration = configuration
        self.store = store
        self.keys = keys
        self.metrics = metrics
        self.now = now
        let tokens = configuration.tokens
        let statusMaxAge = TimeInterval(tokens.statusCacheMilliseconds) / 1000

        accessTokenVerifier = AccessTokenVerifier(
            keys: keys, store: store, issuer: configuration.issuer, statusMaxAge: statusMaxAge)
        accessTokens = AccessTokenIssuer(
            keys: keys, store: store, issuer: configuration.issuer,
            lifetime: TimeInterval(tokens.accessTokenLifetimeSeconds))
        idTokens = IDTokenIssuer(configuration: configuration, keys: keys)
        dpop = DPoPProofs(requireNonce: configuration.dpop.requireNonce, secret: keys.dpopNonceSecret, store: store)
        bearer = BearerTokenCheck(
            verifier: accessTokenVerifier, maxHeaderBytes: configuration.limits.maxHeaderValueBytes, dpop: dpop)
        bodies = RequestBodyReader(configuration)
        authorizeEnvironment = AuthorizeEnvironment(configuration: configuration, store: store, now: now)
        signInPages = SignInPages(configuration: configuration)
        clientAddress = ClientAddress(trustedProxies: configuration.listen.trustedProxies.compactMap { IPAddressRange($0) })
        upstreams = UpstreamProviders(configuration: configuration, metrics: metrics)

        // Checked by `config check` at load; a key file changed since then leaves no attester (attestations refused).
        let attesters = (try? ClientAttesters(configuration: configuration.clientAttestation)) ?? ClientAttesters(attesters: [])
        let clients = ClientAuthenticator(
            clients: configuration.clients,
            attestations: ClientAttestationCheck(
                attesters: attesters, issuer: configuration.issuer, settings: configuration.clientAttestation),
            usedProofs: store, now: now)
        let merchants = MerchantClients(configuration.clients)
        let refreshSeconds = tokens.refreshTokenLifetimeSeconds
        let stepUpSeal = StepUpSessionSeal(signingKeys: keys)
        let stepUp = StepUpIssuance(
            seal: stepUpSeal, configured: configuration.firstPartyApps.stepUpSessionLifetimeSeconds,
            refreshTokenLifetime: refreshSeconds > 0 ? TimeInterval(refreshSeconds) : nil)
        let contributors = TokenResponseContributors(
            ContributorDependencies(
                idTokens: idTokens, deviceSecretLifetime: TimeInterval(tokens.deviceSecretLifetimeSeconds),
                stepUp: configuration.firstPartyApps.enabled ? stepUp : nil))
        let minter = TokenMinter(
            accessTokens: accessTokens, refreshTokenLifetime: refreshSeconds > 0 ? TimeInterval(refreshSeconds) : nil)
        token = TokenEndpoint(
            authenticator: clients,
            grants: GrantDependencies(
                store: store, minter: minter, refreshReuseGrace: TimeInterval(tokens.refreshReuseGraceSeconds),
                verifier: accessTokenVerifier, merchants: merchants, contributors: contributors, idTokens: idTokens),
            dpop: dpop, now: now)
        revocation = RevocationEndpoint(authenticator: clients, verifier: accessTokenVerifier, store: store, now: now)
        wopiAccessTokens = WopiAccessTokenVerifier(keys: keys, store: store, statusMaxAge: statusMaxAge)
        introspection = IntrospectionEndpoint(
            authenticator: clients, verifier: accessTokenVerifier,
            wopiTokens: WopiTokenIntrospection(verifier: wopiAccessTokens, issuer: configuration.issuer), store: store,
            issuer: configuration.issuer, now: now)
        exchange = ExchangeEndpoint(
            bearer: bearer, store: store, merchants: merchants, lifetimes: configuration.exchange,
            limit: InputLimit(maxBytes: configuration.limits.maxBodyBytes), now: now)

        // One upstream sign-in service for the interaction's step, the providers' callback and the broker.
        let upstreamSignInService = UpstreamSignInService(providers: upstreams, metrics: metrics)
        let issuance = CodeIssuance(configuration: configuration, store: store, now: now)
        interaction = InteractionEndpoints(
            environment: authorizeEnvironment, completion: issuance, steps: InteractionSteps(upstream: upstreamSignInService))
        pushedAuthorization = PushedAuthorizationEndpoint(
            authenticator: clients, dpop: dpop, pipeline: authorizeEnvironment.pipeline, store: store, configuration: configuration,
            now: now)
        authorizationChallenge = AuthorizationChallengeEndpoint(
            environment: authorizeEnvironment, store: store, authenticator: clients, dpop: dpop,
            pushed: pushedAuthorization, completion: interaction.completion, steps: interaction.steps, stepUp: stepUpSeal)
        authorize = AuthorizeEndpoint(
            environment: authorizeEnvironment, interaction: interaction, pushed: pushedAuthorization)
        userInfo = UserInfoEndpoint(bearer: bearer, store: store, now: now)
        endSession = EndSessionEndpoint(configuration: configuration, store: store, now: now, idTokens: idTokens)
        sessionCodes = SessionCodeEndpoint(
            store: store, sessionLifetime: TimeInterval(configuration.signIn.sessionLifetimeSeconds), now: now)
        appToApp = AppToAppEndpoints(configuration: configuration, store: store, issuance: issuance, bearer: bearer, now: now)
        upstreamSignIn = UpstreamSignInEndpoints(
            environment: authorizeEnvironment, pages: signInPages, completion: issuance, service: upstreamSignInService)
        broker = BrokerEndpoints(
            configuration: configuration, store: store, now: now, providers: upstreams, metrics: metrics,
            tokens: accessTokens, upstreamSignIn: upstreamSignInService)

        identityProvider = IdentityProviderConnection.make(configuration: configuration, providers: upstreams, metrics: metrics)
        bootstrap = BootstrapService(
            configuration: configuration, store: store, verifier: accessTokenVerifier, seal: WopiAccessTokenSeal(keys: keys),
            external: identityProvider.map { ExternalTokenVerifier(settings: $0.settings, connection: $0) }, now: now)
        wopiForwardAuth = WopiForwardAuthEndpoint(
            verifier: wopiAccessTokens, wopiSources: WopiSourcePrefixes(configuration.wopi.wopiSrcPrefixes),
            maxHeaderBytes: configuration.limits.maxHeaderValueBytes, statusMaxAge: statusMaxAge, now: now)
        ecosystem = EcosystemEndpoint(
            configuration: configuration, verifier: wopiAccessTokens, seal: WopiAccessTokenSeal(keys: keys), now: now)
        readiness = ReadinessChecks(
            checks: ReadinessChecks(store: store, keys: keys).checks
                + (identityProvider.map { [IdentityProviderKeysReadiness(connection: $0)] } ?? []))
    }
}
