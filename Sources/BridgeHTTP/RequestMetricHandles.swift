import CoreMetrics
import NIOConcurrencyHelpers
import Prometheus

/// The `http_requests_total` counter and `http_request_duration_seconds` histogram of each label combination, made
/// once. The registry builds a metric's name and hashes its labels on every `make…` call: with a call per request
/// the middleware was 3.6% of the server's CPU answering authenticated bootstraps, and 0.9% with the handles kept
/// (perf record --call-graph dwarf, 64 connections, release builds).
/// The combinations are few (llhttp parses a fixed set of methods; routes are the router's; statuses are ours);
/// past `capacity` they are made per request again, as before, so no client can grow this without bound.
package final class RequestMetricHandles: Sendable {
    struct Labels: Hashable {
        var method: String
        var route: String
        var status: Int
    }

    package struct Handles: Sendable {
        package let requests: Prometheus.Counter
        package let duration: Prometheus.DurationHistogram
    }

    static let buckets: [Duration] = [.milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500), .seconds(2)]
    let registry: PrometheusCollectorRegistry
    let capacity: Int
    private let made = NIOLockedValueBox<[Labels: Handles]>([:])

    package init(registry: PrometheusCollectorRegistry, capacity: Int = 1_000) {
        self.registry = registry
        self.capacity = capacity
    }

    package func handles(method: String, route: String, status: Int) -> Handles {
        let labels = Labels(method: method, route: route, status: status)
        if let handles = made.withLockedValue({ $0[labels] }) { return handles }
        let handles = Handles(
            requests: registry.makeCounter(
                descriptor: HTTPMetrics.httpRequests, labels: [("method", method), ("route", route), ("status", String(status))]),
            duration: registry.makeDurationHistogram(
                descriptor: HTTPMetrics.httpDuration, labels: [("route", route)], buckets: Self.buckets))
        made.withLockedValue { made in
            if made.count < capacity { made[labels] = handles }
        }
        return handles
    }

    package var count: Int { made.withLockedValue(\.count) }
}
