@testable import BridgeServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A bootstrap is answered on three paths: inside the NIO pipeline (`BootstrapChannelHandler`), before the router
/// (`BootstrapFastPath`) and by the route. `/metrics` must not tell them apart: every answer counts once in
/// `http_requests_total` under the route `/wopibootstrapper` and once in the bootstrap outcome counter, whichever path
/// wrote it (`BootstrapAnswerRecorder` for the first two, the middleware and `BootstrapRoute` for the third).
@Suite("Bootstrap paths count alike")
struct BootstrapPathParityTests {
    enum Path: String, CaseIterable {
        case pipelineChallenge, fastPathChallenge, routeChallenge, routeInvalidToken, routeBootstrap, pipelineBootstrap
    }

    /// The raw request of each path; `token` is a valid access token.
    static func requests(_ path: Path, token: String) -> [String] {
        let bootstrap = "GET /wopibootstrapper HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\n\r\n"
        return switch path {
        case .pipelineChallenge: ["GET /wopibootstrapper HTTP/1.1\r\nHost: t\r\n\r\n"]
        // A `Connection` header keeps it out of the pipeline; no Authorization header lets the fast path answer.
        case .fastPathChallenge: ["GET /wopibootstrapper HTTP/1.1\r\nHost: t\r\nConnection: keep-alive\r\n\r\n"]
        // A blank bearer header is no credential (RFC 6750 §3.1) but is past both earlier paths.
        case .routeChallenge: ["GET /wopibootstrapper HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \r\n\r\n"]
        case .routeInvalidToken: ["GET /wopibootstrapper HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer a.b.c\r\n\r\n"]
        case .routeBootstrap: [bootstrap]
        // The second bootstrap with the same token is answered from memory in the pipeline.
        case .pipelineBootstrap: [bootstrap, bootstrap]
        }
    }

    @Test(arguments: Path.allCases)
    func everyPathCountsItsAnswerOnce(path: Path) async throws {
        let bridge = try await TestBridge.make()
        let token = try await bridge.issueToken().token
        let requests = Self.requests(path, token: token)
        let (status, outcome) = [Path.routeBootstrap, .pipelineBootstrap].contains(path) ? ("200", "bootstrap") : ("401", "challenge")
        try await bridge.app.makeApplication().test(.live) { client in
            let connection = try RawConnection(port: try #require(client.port))
            for request in requests {
                connection.send(request)
                let answer = await connection.receive(responses: 1)
                #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(path): \(answer.prefix(80))")
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                let count = requests.count
                #expect(
                    text.contains(#"http_requests_total{method="GET",route="/wopibootstrapper",status="\#(status)"} \#(count)"#),
                    "\(path): \(text.split(separator: "\n").filter { $0.contains("wopibootstrapper") })")
                #expect(text.contains(#"signin_bridge_bootstrap_responses_total{outcome="\#(outcome)"} \#(count)"#), "\(path)")
                #expect(
                    text.contains(#"http_request_duration_seconds_count{route="/wopibootstrapper"} \#(count)"#), "\(path)")
            }
        }
    }
}
