@testable import BridgeServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Request metrics over the wire")
struct RequestMetricHandlesTests {
    @Test func requestsAreCountedAndTimedPerRouteOverTheWire() async throws {
        let bridge = try await TestBridge.make()
        try await bridge.app.makeApplication().test(.live) { client in
            for _ in 0..<3 { try await client.execute(uri: "/auth/health", method: .get) { _ in } }
            try await client.execute(uri: "/no/such/route", method: .get) { _ in }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains(#"http_requests_total{method="GET",route="/auth/health",status="200"} 3"#), "\(text)")
                #expect(text.contains(#"http_requests_total{method="GET",route="NotFound",status="404"} 1"#))
                #expect(text.contains(#"http_request_duration_seconds_count{route="/auth/health"} 3"#))
            }
        }
    }
}
