import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// RFC 9112 framing on the wire, for the prepared challenge (`/wopibootstrapper`, answered inside the NIO pipeline)
/// and for a routed endpoint (`/oauth2/token`): every faulty shape gets its status and the connection is closed.
@Suite("Strict HTTP/1.1 framing on the wire")
struct StrictFramingTests {
    static let form = "grant_type=client_credentials"

    /// (name, the request's head lines after the request line, body, expected status line)
    static let cases: [(String, String, String, String)] = [
        // RFC 9112 §6.1: a transfer coding the server does not understand → 501.
        ("unknown coding", "Host: t\r\nTransfer-Encoding: xchunked\r\n", "0\r\n\r\n", "HTTP/1.1 501 Not Implemented"),
        ("unknown coding before chunked", "Host: t\r\nTransfer-Encoding: gzip, chunked\r\n", "0\r\n\r\n", "HTTP/1.1 501 Not Implemented"),
        // RFC 9112 §6.3 item 4: chunked not last → 400.
        ("chunked twice", "Host: t\r\nTransfer-Encoding: chunked, chunked\r\n", "0\r\n\r\n", "HTTP/1.1 400 Bad Request"),
        // RFC 9112 §6.1, §6.3 item 3: both framings → 400 and close.
        ("TE and CL", "Host: t\r\nTransfer-Encoding: chunked\r\nContent-Length: \(form.utf8.count)\r\n", form, "HTTP/1.1 400 Bad Request"),
        ("CL and TE", "Host: t\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n", "HTTP/1.1 400 Bad Request"),
        // RFC 9112 §3.2: Host exactly once on HTTP/1.1.
        ("no Host", "", "", "HTTP/1.1 400 Bad Request"),
        ("two Host lines", "Host: t\r\nHost: u\r\n", "", "HTTP/1.1 400 Bad Request"),
        ("a Host list", "Host: t, u\r\n", "", "HTTP/1.1 400 Bad Request"),
        // RFC 9112 §5.2: obs-fold → 400.
        ("obs-fold", "Host: t\r\nX-Folded: a\r\n b\r\n", "", "HTTP/1.1 400 Bad Request"),
        ("obs-fold with a tab", "Host: t\r\nX-Folded: a\r\n\tb\r\n", "", "HTTP/1.1 400 Bad Request"),
        // RFC 9112 §6.3 item 5: Content-Length values that disagree → 400.
        ("two Content-Length lines", "Host: t\r\nContent-Length: 5\r\nContent-Length: 6\r\n", "hello!", "HTTP/1.1 400 Bad Request"),
        ("a Content-Length list", "Host: t\r\nContent-Length: 5, 6\r\n", "hello!", "HTTP/1.1 400 Bad Request"),
        ("a signed Content-Length", "Host: t\r\nContent-Length: +5\r\n", "hello", "HTTP/1.1 400 Bad Request"),
    ]

    static let targets = ["POST /wopibootstrapper", "POST /oauth2/token", "GET /wopibootstrapper"]

    @Test(arguments: targets, cases.indices)
    func faultyFramingIsRefusedAndTheConnectionClosed(target: String, index: Int) async throws {
        let (name, head, body, expected) = Self.cases[index]
        let bridge = try await TestBridge.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send("\(target) HTTP/1.1\r\n\(head)\r\n\(body)")
            let text = await connection.receive(responses: 1)
            #expect(text.components(separatedBy: "\r\n").first == expected, "\(name): \(text)")
            #expect(text.contains("\r\nConnection: close\r\n"), "\(name)")
            let statusLines = text.components(separatedBy: "\r\n").filter { $0.hasPrefix("HTTP/1.1 ") }
            #expect(statusLines.count == 1, "\(name): exactly one response: \(text)")
            #expect(!text.contains("WWW-Authenticate"), "\(name): refused, not answered")
            #expect(await connection.isClosedByPeer(), "\(name)")
        }
    }

    /// The refusal waits for the answer to the request before it on the same connection.
    @Test(arguments: targets)
    func aRefusalAfterAGoodRequestComesSecond(target: String) async throws {
        let bridge = try await TestBridge.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send("GET /auth/health HTTP/1.1\r\nHost: t\r\n\r\n\(target) HTTP/1.1\r\nHost: t\r\nHost: t\r\n\r\n")
            let text = await connection.receive(responses: 2)
            let statuses = text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
            #expect(statuses == ["200", "400"], "\(text)")
            #expect(await connection.isClosedByPeer())
        }
    }

    /// What framing allows still works: HTTP/1.0 without Host, one Content-Length repeated identically, chunked.
    @Test func wellFramedRequestsAreAnswered() async throws {
        let bridge = try await TestBridge.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let port = try #require(client.port)
            let http10 = try RawConnection(port: port)
            http10.send("GET /wopibootstrapper HTTP/1.0\r\n\r\n")
            #expect(await http10.receive(responses: 1).hasPrefix("HTTP/1.1 401 Unauthorized"))
            let chunked = try RawConnection(port: port)
            chunked.send("POST /wopibootstrapper HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
            #expect(await chunked.receive(responses: 1).hasPrefix("HTTP/1.1 401 Unauthorized"))
            chunked.send("GET /auth/health HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(await chunked.receive(responses: 1).hasPrefix("HTTP/1.1 200 OK"), "the connection stays open")
        }
    }

    /// Bytes the parser cannot read at all get a 400 too, not a silent close.
    @Test func unparsableRequestsGet400() async throws {
        let bridge = try await TestBridge.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send("GET /wopibootstrapper HTTP/1.1\r\nHost: t\r\nBad Header: x\r\n\r\n")
            #expect(await connection.receive(responses: 1).hasPrefix("HTTP/1.1 400 Bad Request"))
            #expect(await connection.isClosedByPeer())
        }
    }
}
