import BridgeStore
import CoreMetrics
import Hummingbird
import NIOConcurrencyHelpers
import Prometheus

/// The server's metrics, exported as Prometheus text at `/metrics`. Counters on the hot path are made once here,
/// so counting a request is one atomic add rather than a registry lookup.
public final class BridgeMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    let challenges: Prometheus.Counter
    let bootstraps: Prometheus.Counter
    let notFound: Prometheus.Counter
    let badRequests: Prometheus.Counter
    let storeFailures: Prometheus.Counter
    let storeRoundTrips: MirroredCounter
    let logLinesDropped: MirroredCounter
    /// Read when `/metrics` is scraped: what a soak needs to tell a leak from a backlog or a cache.
    let residentMemory: Prometheus.Gauge
    let storeEngineMemory: Prometheus.Gauge
    let logQueueRecords: Prometheus.Gauge
    let logQueuePeakRecords: Prometheus.Gauge
    let requestHandles: RequestMetricHandles

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        requestHandles = RequestMetricHandles(registry: registry)
        let name = Self.bootstrapResponses
        challenges = registry.makeCounter(descriptor: name, labels: [("outcome", "challenge")])
        bootstraps = registry.makeCounter(descriptor: name, labels: [("outcome", "bootstrap")])
        notFound = registry.makeCounter(descriptor: name, labels: [("outcome", "unknown_wopi_src")])
        badRequests = registry.makeCounter(descriptor: name, labels: [("outcome", "bad_request")])
        storeFailures = registry.makeCounter(descriptor: name, labels: [("outcome", "store_unavailable")])
        storeRoundTrips = MirroredCounter(
            registry.makeCounter(
                descriptor: MetricNameDescriptor(
                    namespace: "signin_bridge", metricName: "store_round_trips", unitName: "total",
                    helpText: "Calls that reached the database (SQLite transactions or statements, PostgreSQL round trips).")))
        logLinesDropped = MirroredCounter(
            registry.makeCounter(
                descriptor: MetricNameDescriptor(
                    namespace: "signin_bridge", metricName: "log_lines_dropped", unitName: "total",
                    helpText: "Log lines given up because the output was too slow or refused them.")))
        // The name Prometheus client libraries use for a process's RSS
        // (https://prometheus.io/docs/instrumenting/writing_clientlibs/#process-metrics).
        residentMemory = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "process", metricName: "resident_memory", unitName: "bytes",
                helpText: "Resident memory size in bytes."))
        storeEngineMemory = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "signin_bridge", metricName: "store_engine_memory", unitName: "bytes",
                helpText: "Memory the embedded database engine holds (SQLite); absent for a database in another process."))
        logQueueRecords = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "signin_bridge", metricName: "log_queue", unitName: "records",
                helpText: "Log records waiting for the log writer's thread."))
        logQueuePeakRecords = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "signin_bridge", metricName: "log_queue_peak", unitName: "records",
                helpText: "The most log records that waited at once since the start."))
    }

    /// Brings the scrape-time figures up to date: the store's round trips and engine memory, the log writer's
    /// queue and losses, and the process's resident memory.
    func observe(store: any Store, log: LogLineWriter) {
        storeRoundTrips.advance(to: store.roundTrips)
        if let bytes = store.engineMemoryBytes { storeEngineMemory.set(Int64(bytes)) }
        let queue = log.queueLength
        logQueueRecords.set(Int64(queue.now))
        logQueuePeakRecords.set(Int64(queue.peak))
        let lost = log.lostLines
        logLinesDropped.advance(to: UInt64(lost.dropped + lost.inFailedWrites))
        if let bytes = ResidentMemory.bytes() { residentMemory.set(Int64(bytes)) }
    }

    /// Counts a failed call to an upstream provider, or an answer of it that was refused:
    /// `signin_bridge_upstream_failures_total{upstream,reason}`.
    func countUpstreamFailure(upstream: String, reason: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "signin_bridge", metricName: "upstream_failures", unitName: "total",
                helpText: "Failed or refused sign-ins at upstream OpenID providers, by upstream and reason."),
            labels: [("upstream", upstream), ("reason", reason)]
        ).increment()
    }

    static var bootstrapResponses: MetricNameDescriptor {
        MetricNameDescriptor(
        namespace: "signin_bridge", metricName: "bootstrap_responses", unitName: "total",
        helpText: "Answers of /wopibootstrapper by outcome.")
    }
    static var httpRequests: MetricNameDescriptor {
        MetricNameDescriptor(
        metricName: "http_requests", unitName: "total", helpText: "HTTP requests by method, route and status.")
    }
    static var httpDuration: MetricNameDescriptor {
        MetricNameDescriptor(
        metricName: "http_request_duration", unitName: "seconds", helpText: "HTTP request duration by route.")
    }

    /// The Prometheus text exposition format (0.0.4).
    func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }

    func count(_ outcome: BootstrapOutcome.Kind) {
        switch outcome {
        case .challenge, .invalidToken: challenges.increment()
        case .bootstrap: bootstraps.increment()
        case .unknownWopiSource: notFound.increment()
        case .badRequest: badRequests.increment()
        case .storeUnavailable: storeFailures.increment()
        case .providerUnavailable:
            // Rare (a provider outage), so the counter is looked up when it happens.
            registry.makeCounter(descriptor: Self.bootstrapResponses, labels: [("outcome", "provider_unavailable")]).increment()
        }
    }
}

extension BridgeMetrics {
    /// One request in `http_requests_total` and `http_request_duration_seconds`: the middleware's count of a route's
    /// answer, and `BootstrapAnswers`' of one written before the router.
    func countRequest(method: String, route: String, status: Int, nanoseconds: Int64) {
        let handles = requestHandles.handles(method: method, route: route, status: status)
        handles.requests.increment()
        handles.duration.recordNanoseconds(nanoseconds)
    }
}

/// A Prometheus counter that follows a total counted elsewhere (the store's, the log writer's): each scrape adds
/// what the total grew by since the last.
final class MirroredCounter: Sendable {
    let counter: Prometheus.Counter
    private let seen = NIOLockedValueBox<UInt64>(0)

    init(_ counter: Prometheus.Counter) { self.counter = counter }

    func advance(to total: UInt64) {
        let delta = seen.withLockedValue { seen -> UInt64 in
            defer { seen = max(seen, total) }
            return total > seen ? total - seen : 0
        }
        if delta > 0 { counter.increment(by: Int64(delta)) }
    }
}
