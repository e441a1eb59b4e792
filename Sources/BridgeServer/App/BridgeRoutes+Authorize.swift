import Foundation
import Hummingbird
import SignInProtocol

extension BridgeRoutes {
    /// The authorization endpoint (GET and POST, RFC 6749 §3.1), the sign-in and consent steps, and the built-in
    /// privacy statement the pages link to when none is configured.
    func registerAuthorize(on router: Router<BridgeRequestContext>) {
        let environment = services.authorizeEnvironment
        let interaction = services.interaction
        let authorize = services.authorize
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
        let signIn = services.upstreamSignIn
        let broker = services.broker
        router.get("/oauth2/interaction/:id/upstream/:upstream") { request, context in
            try await guarded.answer(request, context) { try await interaction.continueUpstream(request, context) }
        }
        router.get("/auth/upstream/:upstream/callback") { request, context in
            try await guarded.answer(request, context) { try await signIn.callback(request, context, broker: broker) }
        }
        registerBroker(on: router)
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
            return outage(request)
        }
    }

    /// The one page answer to a store outage, also for the endpoints that report one as a typed error.
    func outage(_ request: Request) -> Response {
        var response = pages.error(
            PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage]),
            status: .serviceUnavailable, message: \.unavailable)
        response.headers[.retryAfter] = StoreOutage.retryAfterSeconds
        return response
    }
}
