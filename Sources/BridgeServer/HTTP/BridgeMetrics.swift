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

/// Counts requests by method, route and status, and times them (`http_requests_total`,
/// `http_request_duration_seconds`).
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: BridgeMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context: context, status: response.status.code, since: start)
            return response
        } catch {
            // The router's 404 and 405, and any other error answered further out, count under the status it gets.
            record(request, context: context, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: start)
            throw error
        }
    }

    func record(_ request: Request, context: Context, status: Int, since start: ContinuousClock.Instant) {
        let route = context.endpointPath ?? "NotFound"  // what Hummingbird's router names a request no route matched
        metrics.countRequest(
            method: request.method.rawValue, route: route, status: status,
            nanoseconds: Int64((ContinuousClock.now - start) / .nanoseconds(1)))
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

/// The `http_requests_total` counter and `http_request_duration_seconds` histogram of each label combination, made
/// once. The registry builds a metric's name and hashes its labels on every `make…` call: with a call per request
/// the middleware was 3.6% of the server's CPU answering authenticated bootstraps, and 0.9% with the handles kept
/// (perf record --call-graph dwarf, 64 connections, release builds).
/// The combinations are few (llhttp parses a fixed set of methods; routes are the router's; statuses are ours);
/// past `capacity` they are made per request again, as before, so no client can grow this without bound.
final class RequestMetricHandles: Sendable {
    struct Labels: Hashable {
        var method: String
        var route: String
        var status: Int
    }

    struct Handles: Sendable {
        let requests: Prometheus.Counter
        let duration: Prometheus.DurationHistogram
    }

    static let buckets: [Duration] = [.milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500), .seconds(2)]
    let registry: PrometheusCollectorRegistry
    let capacity: Int
    private let made = NIOLockedValueBox<[Labels: Handles]>([:])

    init(registry: PrometheusCollectorRegistry, capacity: Int = 1_000) {
        self.registry = registry
        self.capacity = capacity
    }

    func handles(method: String, route: String, status: Int) -> Handles {
        let labels = Labels(method: method, route: route, status: status)
        if let handles = made.withLockedValue({ $0[labels] }) { return handles }
        let handles = Handles(
            requests: registry.makeCounter(
                descriptor: BridgeMetrics.httpRequests, labels: [("method", method), ("route", route), ("status", String(status))]),
            duration: registry.makeDurationHistogram(
                descriptor: BridgeMetrics.httpDuration, labels: [("route", route)], buckets: Self.buckets))
        made.withLockedValue { made in
            if made.count < capacity { made[labels] = handles }
        }
        return handles
    }

    var count: Int { made.withLockedValue(\.count) }
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
