@testable import BridgeServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOConcurrencyHelpers
import Testing

/// A bootstrap is answered on three paths: inside the NIO pipeline (`PipelineAnswerHandler`), before the router
/// (`BootstrapFastPath`) and by the route, all through `BootstrapAnswers`. Nothing a client or an operator sees may
/// tell them apart: each case below goes down every path over a real socket (a plain request, which the pipeline
/// answers when it can; `Connection` and `Expect` headers and a request pipelined behind another, which it leaves to
/// the application; a token seen before or not), and the answer's head, the `/metrics` deltas and the request log
/// records must be the same whichever path wrote them.
@Suite("Bootstrap paths answer, count and log alike")
struct BootstrapPathParityTests {
    enum Case: String, CaseIterable {
        case noToken, blankToken, malformedToken, refusedToken, validToken, newAccessToken
    }

    /// How the request travels; the comment says which path answers it.
    enum Delivery: String, CaseIterable {
        /// The pipeline, for a request without a credential or with a token seen a moment ago; the route otherwise.
        case plain
        /// The fast path without a credential, the route with one.
        case keepAlive, close, expectContinue
        /// Behind a health check in the same write: the application (fast path or route).
        case pipelined
    }

    static let health = "GET /auth/health HTTP/1.1\r\nHost: t\r\n\r\n"
    static let newAccessTokenFields = "X-WOPI-EcosystemOperation: GET_NEW_ACCESS_TOKEN\r\nX-WOPI-WopiSrc: https://contoso.com/wopi/files/7\r\n"

    static func request(_ testCase: Case, _ delivery: Delivery, token: String) -> String {
        var fields = "Host: t\r\n"
        switch testCase {
        case .noToken: break
        // A blank bearer header is no credential (RFC 6750 §3.1): a challenge without an error.
        case .blankToken: fields += "Authorization: Bearer \r\n"
        case .malformedToken: fields += "Authorization: Bearer a.b.c\r\n"
        case .refusedToken, .validToken: fields += "Authorization: Bearer \(token)\r\n"
        case .newAccessToken: fields += "Authorization: Bearer \(token)\r\n" + newAccessTokenFields
        }
        switch delivery {
        case .plain, .pipelined: break
        case .keepAlive: fields += "Connection: keep-alive\r\n"
        case .close: fields += "Connection: close\r\n"
        case .expectContinue: fields += "Expect: 100-continue\r\nContent-Length: 0\r\n"
        }
        let method = testCase == .newAccessToken ? "POST" : "GET"
        return "\(method) /wopibootstrapper HTTP/1.1\r\n\(fields)\r\n"
    }

    /// What one answer shows: its head (values that differ on every answer reduced to their names), the `/metrics`
    /// lines of the bootstrap that changed and by how much, and its request log record.
    struct Observation: Equatable, CustomStringConvertible {
        var head: [String]
        var metricDeltas: [String: Double]
        var logRecords: [[String: String]]
        var description: String { "head \(head)\nmetrics \(metricDeltas)\nlog \(logRecords)" }
    }

    @Test(arguments: Case.allCases)
    func everyPathAnswersCountsAndLogsAlike(testCase: Case) async throws {
        var observed: [String: Observation] = [:]
        for delivery in Delivery.allCases {
            // A token seen a moment ago is what lets the pipeline answer an authenticated bootstrap.
            for seenBefore in [false, true] where seenBefore == false || [.validToken, .newAccessToken].contains(testCase) {
                observed["\(delivery) seen before: \(seenBefore)"] = try await Self.observe(testCase, delivery, seenBefore: seenBefore)
            }
        }
        let (status, outcome) = Self.expected(testCase)
        let method = testCase == .newAccessToken ? "POST" : "GET"
        let first = try #require(observed.values.first)
        #expect(first.head.first == status)
        #expect(first.metricDeltas == [
            #"http_requests_total{method="\#(method)",route="/wopibootstrapper",status="\#(status.dropFirst(9).prefix(3))"}"#: 1,
            #"http_request_duration_seconds_count{route="/wopibootstrapper"}"#: 1,
            #"signin_bridge_bootstrap_responses_total{outcome="\#(outcome)"}"#: 1,
        ])
        #expect(first.logRecords == [[
            "message": "request", "method": method, "path": "/wopibootstrapper", "status": String(status.dropFirst(9).prefix(3)),
            "duration_ms": "decimal", "hb.request.id": "present",
        ]])
        if testCase == .malformedToken || testCase == .refusedToken {
            #expect(first.head.contains { $0.hasPrefix("WWW-Authenticate: Bearer") && $0.contains(#"error="invalid_token""#) })
        }
        for (path, observation) in observed {
            #expect(observation == first, "\(testCase) \(path):\n\(observation)\nagainst\n\(first)")
        }
    }

    static func expected(_ testCase: Case) -> (status: String, outcome: String) {
        switch testCase {
        case .noToken, .blankToken, .malformedToken, .refusedToken: ("HTTP/1.1 401 Unauthorized", "challenge")
        case .validToken, .newAccessToken: ("HTTP/1.1 200 OK", "bootstrap")
        }
    }

    static func observe(_ testCase: Case, _ delivery: Delivery, seenBefore: Bool) async throws -> Observation {
        let records = CapturedLogRecords()
        let bridge = try await TestBridge.make(.testBridge.requestLogs(true))
        let issued = try await bridge.issueToken()
        if testCase == .refusedToken { _ = try await bridge.store.revokeGrant(issued.grantID, at: bridge.clock.now) }
        let app = BridgeServerApp(
            configuration: bridge.configuration, store: bridge.store, keys: bridge.app.keys,
            logger: Logger(label: "test") { _ in CapturingLogHandler(records: records) }, now: { bridge.clock.now })
        let request = Self.request(testCase, delivery, token: issued.token)
        let observation = try await app.makeApplication().test(.live) { client in
            var observation = Observation(head: [], metricDeltas: [:], logRecords: [])
            let connection = try RawConnection(port: try #require(client.port))
            if seenBefore {
                connection.send(Self.request(testCase, .plain, token: issued.token))
                #expect(await connection.receive(responses: 1).hasPrefix("HTTP/1.1 200"))
            }
            let before = try await Self.metrics(client)
            records.removeAll()
            connection.send(delivery == .pipelined ? Self.health + request : request)
            let text = await connection.receive(responses: delivery == .pipelined ? 2 : 1)
            let answer = try #require(text.components(separatedBy: "HTTP/1.1 ").last.map { "HTTP/1.1 " + $0 })
            observation.head = Self.head(answer)
            if delivery == .close { #expect(await connection.isClosedByPeer(), "\(testCase) \(delivery)") }
            // The pipeline counts and logs once the answer is written: wait for it rather than race it.
            for _ in 0..<100 {
                observation.metricDeltas = Self.deltas(before, try await Self.metrics(client))
                observation.logRecords = records.bootstrapRecords
                if !observation.logRecords.isEmpty, observation.metricDeltas.count >= 3 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            return observation
        }
        try await bridge.store.close()
        return observation
    }

    /// The head's lines, sorted, with the values that change on every answer (or with the token) left out.
    static func head(_ answer: String) -> [String] {
        let lines = answer.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
        let varying = ["Date", "X-Request-Id", "Content-Length"]
        return [lines[0]] + lines.dropFirst().map { line in
            varying.first { line.lowercased().hasPrefix($0.lowercased() + ":") } ?? line
        }.sorted()
    }

    /// The bootstrap's lines of `/metrics` (histogram buckets and sums left out: they depend on the time taken).
    static func metrics(_ client: some TestClientProtocol) async throws -> [String: Double] {
        try await client.execute(uri: "/metrics", method: .get) { response in
            var values: [String: Double] = [:]
            for line in String(buffer: response.body).split(separator: "\n") where !line.hasPrefix("#") {
                guard line.contains("wopibootstrapper") || line.contains("bootstrap_responses"), !line.contains("_bucket"),
                    !line.contains("_sum"), let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...])
                else { continue }
                values[String(line[..<space])] = value
            }
            return values
        }
    }

    static func deltas(_ before: [String: Double], _ after: [String: Double]) -> [String: Double] {
        after.compactMapValues { $0 }.reduce(into: [:]) { deltas, entry in
            let delta = entry.value - (before[entry.key] ?? 0)
            if delta != 0 { deltas[entry.key] = delta }
        }
    }
}

/// The request log records of the bootstrap, reduced to what must not differ between paths: every field's name, the
/// values of `method`, `path` and `status`, and whether the duration and request id are there and well formed.
final class CapturedLogRecords: Sendable {
    private let records = NIOLockedValueBox<[[String: String]]>([])

    func append(_ record: [String: String]) { records.withLockedValue { $0.append(record) } }
    func removeAll() { records.withLockedValue { $0.removeAll() } }

    var bootstrapRecords: [[String: String]] { records(path: "/wopibootstrapper") }

    func records(path: String) -> [[String: String]] {
        records.withLockedValue { $0 }.filter { $0["path"] == path }.map { record in
            var record = record
            if let duration = record["duration_ms"] {
                record["duration_ms"] = duration.wholeMatch(of: /[0-9]+\.[0-9]{2}/) != nil ? "decimal" : duration
            }
            if let id = record["hb.request.id"] { record["hb.request.id"] = id.isEmpty ? "empty" : "present" }
            return record
        }
    }
}

struct CapturingLogHandler: LogHandler {
    let records: CapturedLogRecords
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var record = ["message": event.message.description]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) { record[key] = "\(value)" }
        records.append(record)
    }
}
