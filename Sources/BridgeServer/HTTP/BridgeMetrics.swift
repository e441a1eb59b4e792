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
    let storeRoundTrips: Prometheus.Counter
    /// The store's own count when `/metrics` last read it, so the counter grows by the difference.
    private let roundTripsSeen = NIOLockedValueBox<UInt64>(0)

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        let name = Self.bootstrapResponses
        challenges = registry.makeCounter(descriptor: name, labels: [("outcome", "challenge")])
        bootstraps = registry.makeCounter(descriptor: name, labels: [("outcome", "bootstrap")])
        notFound = registry.makeCounter(descriptor: name, labels: [("outcome", "unknown_wopi_src")])
        badRequests = registry.makeCounter(descriptor: name, labels: [("outcome", "bad_request")])
        storeFailures = registry.makeCounter(descriptor: name, labels: [("outcome", "store_unavailable")])
        storeRoundTrips = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "signin_bridge", metricName: "store_round_trips", unitName: "total",
                helpText: "Calls that reached the database (SQLite transactions or statements, PostgreSQL round trips)."))
    }

    /// Brings `signin_bridge_store_round_trips_total` up to the store's count `total`.
    func observeStoreRoundTrips(_ total: UInt64) {
        let delta = roundTripsSeen.withLockedValue { seen -> UInt64 in
            defer { seen = max(seen, total) }
            return total > seen ? total - seen : 0
        }
        if delta > 0 { storeRoundTrips.increment(by: Int64(delta)) }
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

    func count(_ outcome: BootstrapOutcome) {
        switch outcome {
        case .challenge: challenges.increment()
        case .bootstrap: bootstraps.increment()
        case .unknownWopiSource: notFound.increment()
        case .badRequest: badRequests.increment()
        case .storeUnavailable: storeFailures.increment()
        }
    }
}

/// Counts requests by method, route and status, and times them (`http_requests_total`,
/// `http_request_duration_seconds`).
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: BridgeMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let route = context.endpointPath ?? "unmatched"
        let status = String(response.status.code)
        metrics.registry.makeCounter(
            descriptor: BridgeMetrics.httpRequests, labels: [("method", request.method.rawValue), ("route", route), ("status", status)]
        ).increment()
        metrics.registry.makeDurationHistogram(
            descriptor: BridgeMetrics.httpDuration, labels: [("route", route)],
            buckets: [.milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500), .seconds(2)]
        ).recordNanoseconds(Int64((ContinuousClock.now - start) / .nanoseconds(1)))
        return response
    }
}
