@testable import BridgeHTTP
@testable import BridgeServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The unauthenticated 401 is answered inside the NIO pipeline (`PipelineAnswerHandler`); these tests check it
/// behaves like any HTTP/1.1 response on the wire, including on pipelined and keep-alive connections.
@Suite("Bootstrap challenge fast path on the wire")
struct ChallengeFastPathTests {
    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let bridge = try await TestBridge.make()
        let token = try await bridge.issueToken().token
        try await bridge.app.makeApplication().test(.live) { client in
            let connection = try RawConnection(port: try #require(client.port))
            // An authenticated bootstrap (answered by the application), then two unauthenticated ones and a health
            // check, all in one write: the answers must come back in this order.
            connection.send(
                "GET /wopibootstrapper HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\n\r\n"
                    + "GET /wopibootstrapper HTTP/1.1\r\nHost: t\r\n\r\n"
                    + "POST /wopibootstrapper HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello"
                    + "GET /auth/health HTTP/1.1\r\nHost: t\r\n\r\n")
            let text = await connection.receive(responses: 4)
            // A body is followed directly by the next status line, so split on the status-line prefix ("\r\n" is one Character).
            let statuses = text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { "HTTP/1.1 " + $0.prefix { $0 != "\r\n" } }
            #expect(statuses == ["HTTP/1.1 200 OK", "HTTP/1.1 401 Unauthorized", "HTTP/1.1 401 Unauthorized", "HTTP/1.1 200 OK"])
            #expect(text.contains("\"Bootstrap\""))
            #expect(text.hasSuffix("}"))
        }
    }

    @Test func challengeCarriesLengthDateAndSecurityHeadersAndKeepsTheConnection() async throws {
        let bridge = try await TestBridge.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let connection = try RawConnection(port: try #require(client.port))
            for _ in 0..<3 {
                connection.send("GET /wopibootstrapper HTTP/1.1\r\nHost: t\r\n\r\n")
                let text = await connection.receive(responses: 1)
                let lines = text.components(separatedBy: "\r\n")
                #expect(lines.first == "HTTP/1.1 401 Unauthorized")
                #expect(lines.contains("WWW-Authenticate: \(BootstrapEndpointTests.expectedChallenge)"))
                #expect(lines.contains("Content-Length: 0"))
                #expect(lines.contains("Cache-Control: no-store"))
                #expect(lines.contains("X-Content-Type-Options: nosniff"))
                #expect(lines.contains { $0.hasPrefix("Date: ") && $0.hasSuffix(" GMT") })
                #expect(text.hasSuffix("\r\n\r\n"))
            }
        }
    }

    @Test func connectionCloseIsHonoured() async throws {
        let bridge = try await TestBridge.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send("GET /wopibootstrapper HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            #expect(await connection.receive(responses: 1).hasPrefix("HTTP/1.1 401 Unauthorized"))
            #expect(await connection.isClosedByPeer())
        }
    }

    @Test func everyChallengeIsCounted() async throws {
        let bridge = try await TestBridge.make()
        try await bridge.app.makeApplication().test(.live) { client in
            for _ in 0..<3 { try await client.execute(uri: "/wopibootstrapper", method: .get) { _ in } }
            try await client.execute(uri: "/wopibootstrapper?x=1", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(String(buffer: response.body).contains(#"signin_bridge_bootstrap_responses_total{outcome="challenge"} 4"#))
            }
        }
    }

    /// RFC 9110 §5.6.7's own example.
    @Test func dateHeaderIsIMFFixdate() {
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }
}
