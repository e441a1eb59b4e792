import BridgeHTTP
import BridgeStore
import CoreMetrics
import Prometheus

/// The server's metrics, exported as Prometheus text at `/metrics`: the HTTP floor's (`HTTPMetrics`: requests, log
/// writer, memory) and the features' on the same registry. Counters on the hot path are made once here, so counting
/// a request is one atomic add rather than a registry lookup.
public final class BridgeMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    let http: HTTPMetrics
    let challenges: Prometheus.Counter
    let bootstraps: Prometheus.Counter
    let notFound: Prometheus.Counter
    let badRequests: Prometheus.Counter
    let storeFailures: Prometheus.Counter
    let storeRoundTrips: MirroredCounter
    let storeEngineMemory: Prometheus.Gauge

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        http = HTTPMetrics(registry: registry)
        let name = Self.bootstrapResponses
        challenges = registry.makeCounter(descriptor: name, labels: [("outcome", "challenge")])
        bootstraps = registry.makeCounter(descriptor: name, labels: [("outcome", "bootstrap")])
        notFound = registry.makeCounter(descriptor: name, labels: [("outcome", "unknown_wopi_src")])
        badRequests = registry.makeCounter(descriptor: name, labels: [("outcome", "bad_request")])
        storeFailures = registry.makeCounter(descriptor: name, labels: [("outcome", "store_unavailable")])
        storeRoundTrips = MirroredCounter(
            registry.makeCounter(
                descriptor: .signInBridge("store_round_trips", unit: "total",
                    help: "Calls that reached the database (SQLite transactions or statements, PostgreSQL round trips).")))
        storeEngineMemory = registry.makeGauge(
            descriptor: .signInBridge("store_engine_memory", unit: "bytes",
                help: "Memory the embedded database engine holds (SQLite); absent for a database in another process."))
    }

    /// Brings the scrape-time figures up to date: the store's round trips and engine memory, the log writer's
    /// queue and losses, and the process's resident memory.
    func observe(store: any Store, log: LogLineWriter) {
        storeRoundTrips.advance(to: store.roundTrips)
        if let bytes = store.engineMemoryBytes { storeEngineMemory.set(Int64(bytes)) }
        http.observe(log: log)
    }

    /// Counts a failed call to an upstream provider, or an answer of it that was refused:
    /// `signin_bridge_upstream_failures_total{upstream,reason}`.
    func countUpstreamFailure(upstream: String, reason: String) {
        registry.makeCounter(
            descriptor: .signInBridge("upstream_failures", unit: "total",
                help: "Failed or refused sign-ins at upstream OpenID providers, by upstream and reason."),
            labels: [("upstream", upstream), ("reason", reason)]
        ).increment()
    }

    static var bootstrapResponses: MetricNameDescriptor {
        MetricNameDescriptor.signInBridge("bootstrap_responses", unit: "total",
            help: "Answers of /wopibootstrapper by outcome.")
    }

    /// The Prometheus text exposition format (0.0.4).
    func exposition() -> [UInt8] { http.exposition() }

    func count(_ outcome: BootstrapOutcome.Kind) {
        switch outcome {
        case .challenge, .invalidToken: challenges.increment()
        case .bootstrap: bootstraps.increment()
        case .unknownWopiSource: notFound.increment()
        case .badRequest: badRequests.increment()
        case .storeUnavailable: storeFailures.increment()
        case .serverFault:
            // A fault of the server's own: rare, so the counter is looked up when it happens.
            registry.makeCounter(descriptor: Self.bootstrapResponses, labels: [("outcome", "server_error")]).increment()
        case .providerUnavailable:
            // Rare (a provider outage), so the counter is looked up when it happens.
            registry.makeCounter(descriptor: Self.bootstrapResponses, labels: [("outcome", "provider_unavailable")]).increment()
        }
    }

    /// One request in `http_requests_total` and `http_request_duration_seconds`: the middleware's count of a route's
    /// answer, and `BootstrapAnswers`' of one written before the router.
    func countRequest(method: String, route: String, status: Int, nanoseconds: Int64) {
        http.countRequest(method: method, route: route, status: status, nanoseconds: nanoseconds)
    }
}
