import Hummingbird

extension BridgeRoutes {
    /// The authorization endpoint (GET and POST, RFC 6749 §3.1), the sign-in and consent steps, and the built-in
    /// privacy statement the pages link to when none is configured.
    func registerAuthorize(on router: Router<BridgeRequestContext>) {
        let environment = AuthorizeEnvironment(configuration: configuration, store: store, now: now)
        let interaction = InteractionEndpoints(environment: environment, completion: CodeIssuance(environment: environment))
        let authorize = AuthorizeEndpoint(environment: environment, interaction: interaction)
        router.get("/oauth2/authorize") { request, context in try await authorize.handle(request, context) }
        router.post("/oauth2/authorize") { request, context in try await authorize.handle(request, context) }
        router.get("/oauth2/interaction/:id") { request, context in try await interaction.show(request, context) }
        router.post("/oauth2/interaction/:id/signin") { request, context in try await interaction.signIn(request, context) }
        router.post("/oauth2/interaction/:id/consent") { request, context in try await interaction.consent(request, context) }
        router.get("/privacy") { request, _ in
            environment.pages.privacy(
                PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage]))
        }
    }
}
