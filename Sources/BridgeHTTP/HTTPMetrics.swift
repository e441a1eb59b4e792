import CoreMetrics
import NIOConcurrencyHelpers
import Prometheus

/// The metrics of the HTTP floor, on the registry `/metrics` exports: requests by method, route and status and their
/// durations, the log writer's queue and losses, and the process's resident memory. The features' counters sit on
/// the same registry, made by the server around this one.
package final class HTTPMetrics: Sendable {
    package let registry: PrometheusCollectorRegistry
    package let requestHandles: RequestMetricHandles
    let logLinesDropped: MirroredCounter
    /// Read when `/metrics` is scraped: what a soak needs to tell a leak from a backlog or a cache.
    let residentMemory: Prometheus.Gauge
    let logQueueRecords: Prometheus.Gauge
    let logQueuePeakRecords: Prometheus.Gauge

    package init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        requestHandles = RequestMetricHandles(registry: registry)
        logLinesDropped = MirroredCounter(
            registry.makeCounter(
                descriptor: .signInBridge("log_lines_dropped", unit: "total",
                    help: "Log lines given up because the output was too slow or refused them.")))
        // The name Prometheus client libraries use for a process's RSS
        // (https://prometheus.io/docs/instrumenting/writing_clientlibs/#process-metrics).
        residentMemory = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "process", metricName: "resident_memory", unitName: "bytes",
                helpText: "Resident memory size in bytes."))
        logQueueRecords = registry.makeGauge(
            descriptor: .signInBridge("log_queue", unit: "records",
                help: "Log records waiting for the log writer's thread."))
        logQueuePeakRecords = registry.makeGauge(
            descriptor: .signInBridge("log_queue_peak", unit: "records",
                help: "The most log records that waited at once since the start."))
    }

    /// Brings the scrape-time figures up to date: the log writer's queue and losses, and the resident memory.
    package func observe(log: LogLineWriter) {
        let queue = log.queueLength
        logQueueRecords.set(Int64(queue.now))
        logQueuePeakRecords.set(Int64(queue.peak))
        let lost = log.lostLines
        logLinesDropped.advance(to: UInt64(lost.dropped + lost.inFailedWrites))
        if let bytes = ResidentMemory.bytes() { residentMemory.set(Int64(bytes)) }
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
    package func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }

    /// One request in `http_requests_total` and `http_request_duration_seconds`: the middleware's count of a route's
    /// answer, and that of an answer written before the router.
    package func countRequest(method: String, route: String, status: Int, nanoseconds: Int64) {
        let handles = requestHandles.handles(method: method, route: route, status: status)
        handles.requests.increment()
        handles.duration.recordNanoseconds(nanoseconds)
    }
}

/// A Prometheus counter that follows a total counted elsewhere (the store's, the log writer's): each scrape adds
/// what the total grew by since the last.
package final class MirroredCounter: Sendable {
    let counter: Prometheus.Counter
    private let seen = NIOLockedValueBox<UInt64>(0)

    package init(_ counter: Prometheus.Counter) { self.counter = counter }

    package func advance(to total: UInt64) {
        let delta = seen.withLockedValue { seen -> UInt64 in
            defer { seen = max(seen, total) }
            return total > seen ? total - seen : 0
        }
        if delta > 0 { counter.increment(by: Int64(delta)) }
    }
}

extension MetricNameDescriptor {
    /// One of this server's metrics, `signin_bridge_<name>_<unit>`: the namespace written once for every feature's
    /// counters (Prometheus naming, https://prometheus.io/docs/practices/naming/).
    package static func signInBridge(_ name: String, unit: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "signin_bridge", metricName: name, unitName: unit, helpText: help)
    }
}
