import BridgeHTTP
import BridgeStore
import Foundation
import Hummingbird
import SignInProtocol

/// The store concerns the authorize endpoint and the sign-in pages use (the upstream sign-in and the broker's pages
/// among them): pending requests and their steps, users, browser sessions and the throttle, app-to-app approvals,
/// pushed requests, upstream logins and broker sessions, exchange codes opened as sessions, and the Native SSO device
/// sessions logout ends. Not the token half's (codes, grants, tokens, DPoP proofs): those belong to the token
/// endpoint's grants.
typealias SignInPagesStore = AuthorizationStore & UserStore & BrowserSessionStore & ThrottleStore & AppToAppStore
    & PushedAuthorizationStore & ExchangeStore & UpstreamStore & DeviceSSOStore

/// What the authorize endpoint and the sign-in pages share: built once per application.
struct AuthorizeEnvironment: Sendable {
    let configuration: BridgeConfiguration
    let store: any SignInPagesStore
    let pipeline: AuthorizePipeline
    let pages: PageRenderer
    let cookies: BrowserCookies
    let throttle: SignInThrottle
    let clientAddress: ClientAddress
    let hasher: PasswordHasher
    let now: @Sendable () -> Date

    init(configuration: BridgeConfiguration, store: any SignInPagesStore, now: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.store = store
        self.pipeline = AuthorizePipeline(configuration: configuration)
        self.pages = PageRenderer(
            serviceName: Self.serviceName(configuration),
            privacyURL: configuration.signIn.privacyStatementUrl ?? "/privacy")
        self.cookies = BrowserCookies(
            issuer: configuration.issuer, sessionLifetimeSeconds: configuration.signIn.sessionLifetimeSeconds)
        self.clientAddress = ClientAddress(
            trustedProxies: configuration.listen.trustedProxies.compactMap { IPAddressRange($0) })
        self.throttle = SignInThrottle(
            maxFailures: configuration.signIn.throttle.maxFailures,
            window: TimeInterval(configuration.signIn.throttle.windowSeconds))
        self.hasher = PasswordHasher(cost: configuration.signIn.bcryptCost)
        self.now = now
    }

    /// The host's name above each page: `signIn.serviceName`, else the issuer's host (what the address bar shows).
    static func serviceName(_ configuration: BridgeConfiguration) -> String {
        configuration.signIn.serviceName ?? URL(string: configuration.issuer)?.host ?? configuration.issuer
    }

    func client(id: String) -> BridgeConfiguration.Client? {
        configuration.clients.first { $0.id == id }
    }

    /// The sign-in page's "Continue with …" links, one per configured upstream provider.
    func upstreamLinks(interactionID: String) -> [(href: String, name: String)] {
        configuration.upstreams.map { (Self.interactionPath(interactionID) + "/upstream/" + $0.id, $0.name) }
    }

    static let interactionPrefix = "/oauth2/interaction/"

    static func interactionPath(_ id: String) -> String { interactionPrefix + id }

    static func redirect(to location: String, after method: HTTPRequest.Method) -> Response {
        // 303 after a form post so the browser follows with GET (RFC 9110 §15.4.4); 302 as RFC 6749 §4.1.2 shows.
        Response(status: method == .post ? .seeOther : .found, headers: [.location: location])
    }
}
