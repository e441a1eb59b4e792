import Logging
import Prometheus

/// What the bootstrapper asked the host's identity provider, and how often it did not have to, as Prometheus
/// counters (the JWKS has its own, `KeySetMetrics` with `source="identityProvider"`):
/// - `signin_bridge_identity_provider_calls_total{call,outcome}`: discovery (`loaded`, `failed`), RFC 7662
///   introspection (`active`, `inactive`, `failed`) and UserInfo (`ok`, `failed`);
/// - `signin_bridge_identity_provider_verdicts_total{result}`: a token whose verdict was kept (`kept`, no call at all)
///   or had to be reached (`checked`). The two verdict counters are made once: one of them counts every token.
/// A failed call is also logged with its reason, never with the token.
struct IdentityProviderMetrics: Sendable {
    enum Event: Sendable, Hashable {
        case discovery(loaded: Bool, reason: String?)
        case introspection(outcome: String, reason: String?)
        case userInfo(ok: Bool)
        case verdictKept
        case verdictChecked
    }

    let registry: PrometheusCollectorRegistry
    let kept: Prometheus.Counter
    let checked: Prometheus.Counter
    let logger = Logger(label: "signin-bridge.identity-provider")

    static var calls: MetricNameDescriptor {
        MetricNameDescriptor.signInBridge("identity_provider_calls", unit: "total",
            help: "Calls to the host's identity provider by call (discovery, introspection, userinfo) and outcome.")
    }

    init(metrics: BridgeMetrics) {
        registry = metrics.registry
        let verdicts = MetricNameDescriptor.signInBridge("identity_provider_verdicts", unit: "total",
            help: "Host identity provider tokens whose verdict was kept (no call) or had to be checked.")
        kept = registry.makeCounter(descriptor: verdicts, labels: [("result", "kept")])
        checked = registry.makeCounter(descriptor: verdicts, labels: [("result", "checked")])
    }

    func record(_ event: Event) {
        switch event {
        case .verdictKept: kept.increment()
        case .verdictChecked: checked.increment()
        case .discovery(let loaded, let reason):
            count("discovery", loaded ? "loaded" : "failed")
            if let reason { logger.warning("identity provider discovery failed", metadata: ["reason": .string(reason)]) }
        case .introspection(let outcome, let reason):
            count("introspection", outcome)
            if let reason { logger.warning("identity provider introspection failed", metadata: ["reason": .string(reason)]) }
        case .userInfo(let ok): count("userinfo", ok ? "ok" : "failed")
        }
    }

    private func count(_ call: String, _ outcome: String) {
        registry.makeCounter(descriptor: Self.calls, labels: [("call", call), ("outcome", outcome)]).increment()
    }
}
