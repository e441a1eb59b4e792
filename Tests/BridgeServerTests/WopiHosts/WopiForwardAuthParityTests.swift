@testable import BridgeServer
import BridgeStoreSQLite
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// A forward-auth check the route passed a moment ago is answered inside the NIO pipeline (`WopiForwardAuthPipeline`).
/// Nothing a proxy or an operator sees may tell the two apart: over a real socket, the pipeline's answer has the
/// route's head, `/metrics` deltas and request log record; a revocation ends it as it ends the route's pass; another
/// file's check is never answered from one file's pass; pipelined requests keep their order.
@Suite("WOPI forward auth: the pipeline answers, counts and logs as the route")
struct WopiForwardAuthParityTests {
    static let health = "GET /auth/health HTTP/1.1\r\nHost: t\r\n\r\n"

    static func check(_ token: String, file: String = "42", extraFields: String = "") -> String {
        "GET /wopi/auth HTTP/1.1\r\nHost: t\r\nX-Original-URI: /wopi/files/\(file)?access_token=\(token)\r\n"
            + "X-Original-Method: GET\r\n\(extraFields)\r\n"
    }

    /// A server logging requests into `records`, on `bridge`'s store, keys and clock.
    static func app(_ bridge: TestBridge, records: CapturedLogRecords) -> BridgeServerApp {
        BridgeServerApp(
            configuration: bridge.configuration, store: bridge.store, keys: bridge.app.keys,
            logger: Logger(label: "test") { _ in CapturingLogHandler(records: records) }, now: { bridge.clock.now })
    }

    static func make() async throws -> TestBridge {
        try await TestBridge.make(.testBridge.requestLogs(true))
    }

    @Test func theRemembered200HasTheRoutesHeadMetricsAndLogLine() async throws {
        let bridge = try await Self.make()
        let (token, _) = try await WopiForwardAuthTests.token(bridge)
        let records = CapturedLogRecords()
        let app = Self.app(bridge, records: records)
        let endpoint = app.services.wopiForwardAuth
        let forwarded = ForwardedWopiRequest(originalURI: "/wopi/files/42?access_token=\(token)", method: "GET")
        try await app.makeApplication().test(.live) { client in
            let connection = try RawConnection(port: try #require(client.port))
            var observed: [String: Observation] = [:]
            // (which path, the bytes sent, how many answers come back, whether a pass is remembered before)
            let deliveries: [(String, String, Int, Bool)] = [
                ("route, first check", Self.check(token), 1, false),
                ("pipeline, remembered", Self.check(token), 1, true),
                ("route, Connection field", Self.check(token, extraFields: "Connection: keep-alive\r\n"), 1, true),
                ("route, pipelined behind another", Self.health + Self.check(token), 2, true),
                ("pipeline again", Self.check(token), 1, true),
            ]
            for (path, bytes, answers, remembered) in deliveries {
                #expect((endpoint.rememberedAnswer(to: forwarded, at: bridge.clock.now) != nil) == remembered, "\(path)")
                observed[path] = try await Self.observe(bytes, answers: answers, on: connection, client: client, records: records)
            }
            let route = try #require(observed["route, first check"])
            #expect(route.head.first == "HTTP/1.1 200 OK")
            #expect(route.head.contains("X-WOPI-User-Id: alice"))
            #expect(route.head.contains("X-WOPI-Sign-In-Name: alice@contoso.com"))
            #expect(route.head.contains("X-WOPI-WopiSrc: https://contoso.com/wopi/files/42"))
            #expect(route.head.contains("X-WOPI-Client-Id: office"))
            #expect(route.head.contains("X-Request-Id"))
            #expect(route.metricDeltas == [
                #"http_requests_total{method="GET",route="/wopi/auth",status="200"}"#: 1,
                #"http_request_duration_seconds_count{route="/wopi/auth"}"#: 1,
            ])
            #expect(route.logRecords == [[
                "message": "request", "method": "GET", "path": "/wopi/auth", "status": "200", "duration_ms": "decimal",
                "hb.request.id": "present",
            ]])
            for (path, observation) in observed {
                #expect(observation == route, "\(path):\n\(observation)\nagainst\n\(route)")
            }
        }
        try await bridge.store.close()
    }

    @Test func aRevokedGrantIsNoLongerPassedOnceTheStatusCacheTimeIsOver() async throws {
        let bridge = try await Self.make()
        let (token, grant) = try await WopiForwardAuthTests.token(bridge)
        let (through, throughGrant) = try await WopiForwardAuthTests.token(bridge)
        let app = Self.app(bridge, records: CapturedLogRecords())
        let maxAge = TimeInterval(bridge.configuration.tokens.statusCacheMilliseconds) / 1000
        let forwarded = ForwardedWopiRequest(originalURI: "/wopi/files/42?access_token=\(token)", method: "GET")
        // Another process on the same database (`signin-bridge grant revoke`): this server's store counts no change.
        let otherProcess = try await SQLiteStore.open(path: bridge.configuration.store.sqlite.path)
        try await app.makeApplication().test(.live) { client in
            let connection = try RawConnection(port: try #require(client.port))
            func status(_ request: String) async -> String {
                connection.send(request)
                return String(await connection.receive(responses: 1).prefix(12))
            }
            #expect(await status(Self.check(through)) == "HTTP/1.1 200")
            // Revoked through this server: refused at once, remembered pass or not.
            #expect(try await bridge.store.revokeGrant(throughGrant, at: bridge.clock.now))
            #expect(await status(Self.check(through)) == "HTTP/1.1 401")
            #expect(await status(Self.check(token)) == "HTTP/1.1 200")
            #expect(try await otherProcess.revokeGrant(grant, at: bridge.clock.now))
            // Within the status cache time the route would pass it too (the verifier keeps the grant's status).
            #expect(app.services.wopiForwardAuth.rememberedAnswer(to: forwarded, at: bridge.clock.now) != nil)
            #expect(await status(Self.check(token)) == "HTTP/1.1 200")
            bridge.clock.advance(by: maxAge)
            #expect(app.services.wopiForwardAuth.rememberedAnswer(to: forwarded, at: bridge.clock.now) == nil)
            #expect(await status(Self.check(token)) == "HTTP/1.1 401")
            #expect(await status(Self.check(token)) == "HTTP/1.1 401")
        }
        try await otherProcess.close()
        try await bridge.store.close()
    }

    @Test func anotherFileWithTheSameTokenIsNotAnsweredFromThisFilesPass() async throws {
        let bridge = try await Self.make()
        let (token, _) = try await WopiForwardAuthTests.token(bridge)
        let app = Self.app(bridge, records: CapturedLogRecords())
        try await app.makeApplication().test(.live) { client in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send(Self.check(token))
            #expect(await connection.receive(responses: 1).hasPrefix("HTTP/1.1 200"))
            connection.send(Self.check(token, file: "43"))
            let other = await connection.receive(responses: 1)
            #expect(other.hasPrefix("HTTP/1.1 403"))
            #expect(other.contains(#"error="insufficient_scope""#))
            #expect(!other.contains("X-WOPI-User-Id"))
        }
        #expect(app.services.wopiForwardAuth.passes.count == 1)
        try await bridge.store.close()
    }

    @Test func pipelinedRequestsOnOneConnectionKeepTheirOrder() async throws {
        let bridge = try await Self.make()
        let (token, _) = try await WopiForwardAuthTests.token(bridge)
        let (token43, _) = try await WopiForwardAuthTests.token(bridge, for: "https://contoso.com/wopi/files/43")
        let app = Self.app(bridge, records: CapturedLogRecords())
        try await app.makeApplication().test(.live) { client in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send(Self.check(token) + Self.check(token43, file: "43"))
            #expect(await connection.receive(responses: 2).components(separatedBy: "HTTP/1.1 200").count == 3)
            // Both are remembered now: the first is answered in the pipeline, the rest wait behind the route's.
            let sequence = [Self.check(token), Self.check(token, file: "43"), Self.check(token43, file: "43"), Self.health, Self.check(token)]
            connection.send(sequence.joined())
            let answers = await connection.receive(responses: sequence.count).components(separatedBy: "HTTP/1.1 ").dropFirst()
            let summary = answers.map { answer in
                let source = answer.firstMatch(of: /X-WOPI-WopiSrc: (\S+)/).map { String($0.1) } ?? "-"
                return "\(answer.prefix(3)) \(source)"
            }
            #expect(summary == [
                "200 https://contoso.com/wopi/files/42", "403 -", "200 https://contoso.com/wopi/files/43", "200 -",
                "200 https://contoso.com/wopi/files/42",
            ])
        }
        try await bridge.store.close()
    }

    // MARK: Observing one answer

    struct Observation: Equatable, CustomStringConvertible {
        var head: [String]
        var metricDeltas: [String: Double]
        var logRecords: [[String: String]]
        var description: String { "head \(head)\nmetrics \(metricDeltas)\nlog \(logRecords)" }
    }

    /// Sends `bytes`, and observes the last of the `answers` that come back.
    static func observe(
        _ bytes: String, answers: Int, on connection: RawConnection, client: some TestClientProtocol, records: CapturedLogRecords
    ) async throws -> Observation {
        let before = try await metrics(client)
        records.removeAll()
        connection.send(bytes)
        let text = await connection.receive(responses: answers)
        let answer = try #require(text.components(separatedBy: "HTTP/1.1 ").last.map { "HTTP/1.1 " + $0 })
        var observation = Observation(head: BootstrapPathParityTests.head(answer), metricDeltas: [:], logRecords: [])
        // The pipeline counts and logs once the answer is written: wait for it rather than race it.
        for _ in 0..<100 {
            observation.metricDeltas = BootstrapPathParityTests.deltas(before, try await metrics(client))
            observation.logRecords = records.records(path: "/wopi/auth")
            if !observation.logRecords.isEmpty, observation.metricDeltas.count >= 2 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        return observation
    }

    /// The forward-auth lines of `/metrics` (histogram buckets and sums left out: they depend on the time taken).
    static func metrics(_ client: some TestClientProtocol) async throws -> [String: Double] {
        try await client.execute(uri: "/metrics", method: .get) { response in
            var values: [String: Double] = [:]
            for line in String(buffer: response.body).split(separator: "\n") where !line.hasPrefix("#") {
                guard line.contains(#"route="/wopi/auth"#), !line.contains("_bucket"), !line.contains("_sum"),
                    let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...])
                else { continue }
                values[String(line[..<space])] = value
            }
            return values
        }
    }
}
