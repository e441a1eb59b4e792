import Hummingbird

extension BridgeRoutes {
    /// The authorization endpoint (GET and POST, RFC 6749 §3.1), the sign-in and consent steps, and the built-in
    /// privacy statement the pages link to when none is configured.
    func registerAuthorize(on router: Router<BridgeRequestContext>) {
        let environment = AuthorizeEnvironment(configuration: configuration, store: store, now: now)
        let interaction = InteractionEndpoints(environment: environment, completion: CodeIssuance(environment: environment))
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
        router.get("/privacy") { request, _ in
            environment.pages.privacy(
                PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage]))
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
            response.headers[.retryAfter] = "5"
            return response
        }
    }
}
