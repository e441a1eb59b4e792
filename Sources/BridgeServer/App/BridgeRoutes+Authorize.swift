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
        let browser = BrowserRoute(
            guarded: StoreOutagePage(pages: environment.pages), renderer: interaction.renderer, bodies: services.bodies)
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/oauth2/authorize", method: method) { request, context in
                try await browser.answer(request, context) { input in
                    try await authorize.respond(input, logger: context.logger)
                }
            }
        }
        router.get("/oauth2/interaction/:id") { request, context in
            try await browser.answer(request, context) { try await interaction.show($0, logger: context.logger) }
        }
        router.post("/oauth2/interaction/:id/signin") { request, context in
            try await browser.answer(request, context, clientAddress: environment.clientAddress) {
                try await interaction.signIn($0, logger: context.logger)
            }
        }
        router.post("/oauth2/interaction/:id/consent") { request, context in
            try await browser.answer(request, context) { try await interaction.consent($0, logger: context.logger) }
        }
        registerUpstreams(on: router, environment: environment, browser: browser)
        router.get("/privacy") { request, _ in
            environment.pages.privacy(
                PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage]))
        }
    }
}

/// The route of a browser-facing step: reads the request into a `BrowserRequest` (a `POST`'s form through the one
/// body reader), asks the step, and draws its `BrowserAnswer` with `InteractionRenderer`; a store outage is the
/// outage page.
struct BrowserRoute: Sendable {
    let guarded: StoreOutagePage
    let renderer: InteractionRenderer
    let bodies: RequestBodyReader

    func answer(
        _ request: Request, _ context: BridgeRequestContext, clientAddress: ClientAddress? = nil,
        _ step: (BrowserRequest) async throws -> BrowserAnswer
    ) async throws -> Response {
        try await guarded.answer(request, context) {
            let input = await read(request, context, clientAddress: clientAddress)
            return renderer.response(try await step(input), method: request.method, logger: context.logger)
        }
    }

    func read(_ request: Request, _ context: BridgeRequestContext, clientAddress: ClientAddress?) async -> BrowserRequest {
        let cookies = renderer.environment.cookies
        var input = BrowserRequest(
            method: request.method, query: request.uri.query, acceptLanguage: request.headers[.acceptLanguage],
            browserSecret: cookies.browserSecret(in: request), sessionSecret: cookies.sessionSecret(in: request),
            interactionID: context.parameters.get("id"), upstream: context.parameters.get("upstream"))
        if request.method == .post {
            do throws(RequestBodyError) {
                input.form = .success(try await bodies.form(request))
            } catch {
                input.form = .failure(error)
            }
        }
        if let clientAddress {
            input.clientAddress = clientAddress.resolve(
                peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[values: ClientAddress.forwardedForField])
        }
        return input
    }
}

extension BridgeRoutes {
    /// "Continue with …" on the sign-in page, the upstream providers' callback, and the session broker.
    func registerUpstreams(
        on router: Router<BridgeRequestContext>, environment: AuthorizeEnvironment, browser: BrowserRoute
    ) {
        guard !upstreams.byID.isEmpty else { return }
        let signIn = services.upstreamSignIn
        let broker = services.broker
        let interaction = services.interaction
        router.get("/oauth2/interaction/:id/upstream/:upstream") { request, context in
            try await browser.answer(request, context) { try await interaction.continueUpstream($0, logger: context.logger) }
        }
        router.get("/auth/upstream/:upstream/callback") { request, context in
            try await browser.guarded.answer(request, context) { try await signIn.callback(request, context, broker: broker) }
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
