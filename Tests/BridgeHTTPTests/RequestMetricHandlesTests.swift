@testable import BridgeHTTP
import Foundation
import Prometheus
import Testing

@Suite("Request metrics: each label combination's handles made once")
struct RequestMetricHandlesTests {
    @Test func theSameLabelsGetTheSameHandlesAndOthersTheirOwn() {
        let metrics = HTTPMetrics(registry: PrometheusCollectorRegistry())
        let handles = metrics.requestHandles
        handles.handles(method: "GET", route: "/a", status: 200).requests.increment()
        handles.handles(method: "GET", route: "/a", status: 200).requests.increment()
        handles.handles(method: "POST", route: "/a", status: 200).requests.increment()
        handles.handles(method: "GET", route: "/a", status: 404).duration.recordNanoseconds(2_000_000)
        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(text.contains(#"http_requests_total{method="GET",route="/a",status="200"} 2"#), "\(text)")
        #expect(text.contains(#"http_requests_total{method="POST",route="/a",status="200"} 1"#))
        #expect(text.contains(#"http_request_duration_seconds_count{route="/a"} 1"#))
        #expect(handles.count == 3)
    }

    /// Past the capacity nothing more is kept, and requests are still counted under their own labels.
    @Test func pastItsCapacityItKeepsNothingMoreAndStillCounts() {
        let metrics = HTTPMetrics(registry: PrometheusCollectorRegistry())
        let handles = RequestMetricHandles(registry: metrics.registry, capacity: 2)
        for status in [200, 201, 202, 202, 203] {
            handles.handles(method: "GET", route: "/b", status: status).requests.increment()
        }
        #expect(handles.count == 2)
        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(text.contains(#"http_requests_total{method="GET",route="/b",status="202"} 2"#), "\(text)")
        #expect(text.contains(#"http_requests_total{method="GET",route="/b",status="203"} 1"#))
    }
}
