import Foundation
import SignInProtocol

/// What the browser's pages are drawn with: the page renderer, the browser and session cookies, and the sign-in
/// page's "Continue with …" links. Built once (`BridgeServices.signInPages`) for the page routes and
/// `InteractionRenderer`; the JSON-only services never hold it.
struct SignInPages: Sendable {
    let pages: PageRenderer
    let cookies: BrowserCookies
    /// The configured upstream providers, in order: id and name.
    let upstreams: [(id: String, name: String)]

    init(configuration: BridgeConfiguration) {
        pages = PageRenderer(
            serviceName: Self.serviceName(configuration),
            privacyURL: configuration.signIn.privacyStatementUrl ?? "/privacy")
        cookies = BrowserCookies(
            issuer: configuration.issuer, sessionLifetimeSeconds: configuration.signIn.sessionLifetimeSeconds)
        upstreams = configuration.upstreams.map { ($0.id, $0.name) }
    }

    /// The host's name above each page: `signIn.serviceName`, else the issuer's host (what the address bar shows).
    static func serviceName(_ configuration: BridgeConfiguration) -> String {
        configuration.signIn.serviceName ?? URL(string: configuration.issuer)?.host ?? configuration.issuer
    }

    /// The sign-in page's "Continue with …" links, one per configured upstream provider.
    func upstreamLinks(interactionID: String) -> [(href: String, name: String)] {
        upstreams.map { (BrowserNavigation.interactionPath(interactionID) + "/upstream/" + $0.id, $0.name) }
    }
}
