import BridgeHTTP
import BridgeStore
import Foundation
import SignInProtocol

/// The store concerns the interaction steps share, in the browser and at the authorization challenge endpoint: the
/// pending request and its steps (a sign-in among them), the sign-in throttle, the app-to-app reference a step parks,
/// and the upstream login a step starts. The JSON-only services take their own concerns (`AppToAppEndpoints`,
/// `SessionCodeEndpoint`, `EndSessionEndpoint`, `BrokerEndpoints`).
typealias InteractionStore = AuthorizationStore & ThrottleStore & AppToAppStore & UpstreamStore

/// What the authorize endpoint and the interaction steps share: built once per application. No pages or cookies
/// (`SignInPages`), so a step decides and never draws.
struct AuthorizeEnvironment: Sendable {
    let configuration: BridgeConfiguration
    let store: any InteractionStore
    let pipeline: AuthorizePipeline
    let throttle: SignInThrottle
    let hasher: PasswordHasher
    let now: @Sendable () -> Date

    init(configuration: BridgeConfiguration, store: any InteractionStore, now: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.store = store
        self.pipeline = AuthorizePipeline(configuration: configuration)
        self.throttle = SignInThrottle(
            maxFailures: configuration.signIn.throttle.maxFailures,
            window: TimeInterval(configuration.signIn.throttle.windowSeconds))
        self.hasher = PasswordHasher(cost: configuration.signIn.bcryptCost)
        self.now = now
    }

    func client(id: String) -> BridgeConfiguration.Client? { configuration.client(id: id) }
}

extension BridgeConfiguration {
    /// The configured client with this id.
    func client(id: String) -> Client? { clients.first { $0.id == id } }
}
