import Logging
import Prometheus

/// `RemoteKeySet`'s events as Prometheus counters, labelled with the key set's source (an upstream's id):
/// `signin_bridge_jwks_fetches_total{source,outcome}` and `signin_bridge_jwks_lookups_total{source,result}`. The
/// lookup counters are made once, since a lookup runs on every token verified; fetches are rare, and a failed one is
/// logged with its reason.
struct KeySetMetrics: Sendable {
    let source: String
    let registry: PrometheusCollectorRegistry
    let hits: Prometheus.Counter
    let misses: Prometheus.Counter
    let logger = Logger(label: "signin-bridge.jwks")

    init(source: String, metrics: BridgeMetrics) {
        self.source = source
        registry = metrics.registry
        let lookups = MetricNameDescriptor.signInBridge("jwks_lookups", unit: "total",
            help: "Tokens whose signing key was among a remote JWKS's kept keys (hit) or not (miss), by source.")
        hits = registry.makeCounter(descriptor: lookups, labels: [("source", source), ("result", "hit")])
        misses = registry.makeCounter(descriptor: lookups, labels: [("source", source), ("result", "miss")])
    }

    func record(_ event: RemoteKeySet.Event) {
        switch event {
        case .hit: hits.increment()
        case .miss: misses.increment()
        case .fetch(let outcome, let reason):
            if let reason {
                logger.warning("JWKS not loaded", metadata: ["source": .string(source), "outcome": .string(outcome), "reason": .string(reason)])
            }
            registry.makeCounter(
                descriptor: .signInBridge("jwks_fetches", unit: "total",
                    help: "Fetches of a remote JWKS by source and outcome (loaded, unreachable, or why it was refused)."),
                labels: [("source", source), ("outcome", outcome)]
            ).increment()
        }
    }
}
