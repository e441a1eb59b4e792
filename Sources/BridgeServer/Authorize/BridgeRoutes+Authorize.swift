import BridgeHTTP
import Foundation
import Hummingbird
import SignInProtocol

extension BridgeRoutes {
    /// The authorization endpoint (GET and POST, RFC 6749 §3.1), the sign-in and consent steps, and the built-in
    /// privacy statement the pages link to when none is configured.
    func registerAuthorize(on router: Router<BridgeRequestContext>) {
        let pages = services.signInPages
        let interaction = services.interaction
        let authorize = services.authorize
        let browser = BrowserRoute(
            guarded: StoreOutagePage(pages: pages.pages),
            renderer: InteractionRenderer(pages: pages, completion: interaction.completion), bodies: services.bodies)
        let clientAddress = services.clientAddress
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
            try await browser.answer(request, context, clientAddress: clientAddress) {
                try await interaction.signIn($0, logger: context.logger)
            }
        }
        router.post("/oauth2/interaction/:id/consent") { request, context in
            try await browser.answer(request, context) { try await interaction.consent($0, logger: context.logger) }
        }
        registerUpstreams(on: router, browser: browser)
        router.get("/privacy") { request, _ in
            pages.pages.privacy(
                PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage]))
        }
    }
}

extension BridgeRoutes {
    /// "Continue with …" on the sign-in page, the upstream providers' callback, and the session broker.
    func registerUpstreams(
        on router: Router<BridgeRequestContext>, browser: BrowserRoute
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
