import Foundation
import Hummingbird
import SignInProtocol

extension BridgeRoutes {
    /// The authorization endpoint (GET and POST, RFC 6749 §3.1), the sign-in and consent steps, and the built-in
    /// privacy statement the pages link to when none is configured.
    func registerAuthorize(on router: Router<BridgeRequestContext>) {
        let environment = AuthorizeEnvironment(configuration: configuration, store: store, now: now)
        let interaction = InteractionEndpoints(
            environment: environment, completion: CodeIssuance(environment: environment),
            steps: InteractionSteps(upstream: UpstreamSignInService(providers: upstreams, metrics: metrics)))
        let authorize = AuthorizeEndpoint(environment: environment, interaction: interaction)
        let guarded = StoreOutagePage(pages: environment.pages)
        router.get("/oauth2/authorize") { request, context in
            try await guarded.answer(request, context) { try await authorize.handle(request, context) }
        }
        router.post("/oauth2/authorize") { request, context in
            try await guarded.answer(request, context) { try await authorize.handle(request, context) }
        }
        router.get("/oauth2/interaction/:id") { request, context in
            try await guarded.answer(request, context) { try await interaction.show(request, context) }
        }
        router.post("/oauth2/interaction/:id/signin") { request, context in
            try await guarded.answer(request, context) { try await interaction.signIn(request, context) }
        }
        router.post("/oauth2/interaction/:id/consent") { request, context in
            try await guarded.answer(request, context) { try await interaction.consent(request, context) }
        }
        registerUpstreams(on: router, environment: environment, interaction: interaction, guarded: guarded)
        router.get("/privacy") { request, _ in
            environment.pages.privacy(
                PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage]))
        }
    }
}

extension BridgeRoutes {
    /// "Continue with …" on the sign-in page, the upstream providers' callback, and the session broker.
    func registerUpstreams(
        on router: Router<BridgeRequestContext>, environment: AuthorizeEnvironment, interaction: InteractionEndpoints,
        guarded: StoreOutagePage
    ) {
        guard !upstreams.byID.isEmpty else { return }
        let signIn = UpstreamSignInEndpoints(environment: environment, providers: upstreams, metrics: metrics)
        let broker = BrokerEndpoints(
            environment: environment, providers: upstreams, metrics: metrics,
            tokens: AccessTokenIssuer(
                keys: keys, store: store, issuer: configuration.issuer,
                lifetime: TimeInterval(configuration.tokens.accessTokenLifetimeSeconds)))
        router.get("/oauth2/interaction/:id/upstream/:upstream") { request, context in
            try await guarded.answer(request, context) { try await interaction.continueUpstream(request, context) }
        }
        router.get("/auth/upstream/:upstream/callback") { request, context in
            try await guarded.answer(request, context) { try await signIn.callback(request, context, broker: broker) }
        }
        guard configuration.broker.clientId != nil else { return }
        let json = BrokerStoreOutage()
        router.get("/auth/:provider/login") { request, context in
            try await json.answer(context) { try await broker.login(request, context) }
        }
        router.post("/auth/:provider/login") { request, context in
            try await json.answer(context) { try await broker.login(request, context) }
        }
        router.post("/auth/:provider/session") { request, context in
            try await json.answer(context) { try await broker.session(request, context) }
        }
    }
}

/// The broker's JSON answer when its store call failed: 503 `temporarily_unavailable`, never a 500.
struct BrokerStoreOutage: Sendable {
    func answer(_ context: BridgeRequestContext, _ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            context.logger.error("broker step failed in the store", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            return BrokerEndpoints.error(OAuthError.storeUnavailable)
        }
    }
}

/// The page for a step whose store call failed (the database is down or timed out): 503 with `Retry-After`
/// (RFC 9110 §15.6.4), never a 500. HTTP errors the framework raises (a body over its limit) pass through unchanged.
struct StoreOutagePage: Sendable {
    let pages: PageRenderer

    func answer(
        _ request: Request, _ context: BridgeRequestContext, _ body: () async throws -> Response
    ) async throws -> Response {
        do {
            return try await body()
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            context.logger.error("sign-in step failed in the store", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            var response = pages.error(
                PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage]),
                status: .serviceUnavailable, message: \.unavailable)
            response.headers[.retryAfter] = StoreOutage.retryAfterSeconds
            return response
        }
    }
}
