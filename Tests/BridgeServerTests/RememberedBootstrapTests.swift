@testable import BridgeHTTP
@testable import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

/// An authenticated bootstrap whose token and store status were seen a moment ago is answered inside the NIO pipeline
/// (`BootstrapAnswers.pipelineAnswer`); the answer must be the route's, and anything the route would answer otherwise goes to it.
@Suite("Remembered bootstraps")
struct RememberedBootstrapTests {
    static func head(_ token: String, method: HTTPRequest.Method = .get, path: String = "/wopibootstrapper", _ more: HTTPFields = [:]) -> HTTPRequest {
        var fields: HTTPFields = [.authorization: "Bearer \(token)"]
        fields.append(contentsOf: more)
        return HTTPRequest(method: method, scheme: nil, authority: "t", path: path, headerFields: fields)
    }

    static func remembered(_ bridge: TestBridge) -> BootstrapAnswers {
        let securityFields = SecurityHeaders.fields(https: false)
        return BootstrapAnswers(
            service: bridge.app.services.bootstrap,
            challenge: ChallengeResponse(configuration: bridge.configuration, securityFields: securityFields),
            securityFields: securityFields, metrics: bridge.app.metrics, logger: nil)
    }

    @Test func onlyATokenAndStatusSeenBeforeAreAnsweredFromMemory() async throws {
        let bridge = try await TestBridge.make()
        let issued = try await bridge.issueToken()
        let remembered = Self.remembered(bridge)
        #expect(remembered.answer(to: Self.head(issued.token)) == nil, "nothing seen yet")
        let outcome = await remembered.service.respond(to: BootstrapRequest(authorization: "Bearer \(issued.token)", isPost: false), logger: .init(label: "test"))
        guard case .bootstrap = outcome else { Issue.record("\(outcome)"); return }
        let rounds = bridge.store.roundTrips
        let answer = try #require(remembered.answer(to: Self.head(issued.token)))
        #expect(bridge.store.roundTrips == rounds)
        #expect(answer.head.status == .ok)
        let body = try BootstrapResponse.decode(Data(buffer: answer.body))
        #expect(body.bootstrap.userId == "alice")
        let token = try #require(URLComponents(string: body.bootstrap.ecosystemURL)?.queryItems?.first { $0.name == "access_token" }?.value)
        #expect(try await bridge.app.wopiAccessTokenVerifier.verify(token, for: nil, at: bridge.clock.now).grant.id == issued.grantID)
        // After the status cache's time, or a change through this store, the store is asked again.
        bridge.clock.advance(by: 1)
        #expect(remembered.answer(to: Self.head(issued.token)) == nil)
        _ = await remembered.service.respond(to: BootstrapRequest(authorization: "Bearer \(issued.token)", isPost: false), logger: .init(label: "test"))
        #expect(remembered.answer(to: Self.head(issued.token)) != nil)
        try await bridge.store.saveUser(UserRecord(id: "someone", signInName: "someone@contoso.com", friendlyName: nil, passwordHash: nil))
        #expect(remembered.answer(to: Self.head(issued.token)) == nil)
        try await bridge.store.close()
    }

    @Test func whatTheRouteWouldAnswerOtherwiseIsLeftToIt() async throws {
        let bridge = try await TestBridge.make()
        let issued = try await bridge.issueToken()
        let remembered = Self.remembered(bridge)
        let request = BootstrapRequest(authorization: "Bearer \(issued.token)", isPost: true, sessionContext: "sc-1")
        // The first records the session context, a change that drops what was kept; the second is a read, kept.
        _ = await remembered.service.respond(to: request, logger: .init(label: "test"))
        #expect(remembered.answer(to: Self.head(issued.token, method: .post, [HTTPField.Name("X-WOPI-SessionContext")!: "sc-1"])) == nil)
        _ = await remembered.service.respond(to: request, logger: .init(label: "test"))
        let context = HTTPField.Name("X-WOPI-SessionContext")!
        let operation = HTTPField.Name("X-WOPI-EcosystemOperation")!
        let source = HTTPField.Name("X-WOPI-WopiSrc")!
        #expect(remembered.answer(to: Self.head(issued.token, method: .post, [context: "sc-1"])) != nil)
        let limit = bridge.configuration.limits.maxHeaderValueBytes
        let leftToTheRoute: [HTTPRequest] = [
            Self.head(issued.token, [context: "sc-2"]),  // a new session context is recorded
            Self.head(issued.token, [.connection: "close"]),
            Self.head(issued.token, [.expect: "100-continue"]),
            Self.head(issued.token, method: .post, [.contentLength: "5"]),
            Self.head(issued.token, method: .post, [.transferEncoding: "chunked"]),
            Self.head(issued.token, [.userAgent: String(repeating: "a", count: limit + 1)]),  // 431 from the route
            Self.head(issued.token, path: "/wopibootstrapper?x=1"),
            Self.head(issued.token, [.authorization: "Bearer \(issued.token)"]),  // the route sees both, joined
            Self.head(issued.token, method: .post, [context: "sc-1", context: "sc-1"]),
            Self.head(issued.token, method: .put),
            Self.head(issued.token + "x"),  // another token: its signature is checked first
            Self.head(issued.token, method: .post, [operation: "GET_NEW_ACCESS_TOKEN", source: "https://elsewhere.test/wopi/files/1"]),
        ]
        for head in leftToTheRoute {
            #expect(remembered.answer(to: head) == nil, "\(head.method) \(head.path ?? "") \(head.headerFields)")
        }
        let file = try #require(remembered.answer(to: Self.head(
            issued.token, method: .post, [operation: "GET_NEW_ACCESS_TOKEN", source: "https://contoso.com/wopi/files/7"])))
        #expect(try BootstrapResponse.decode(Data(buffer: file.body)).accessTokenInfo != nil)
        try await bridge.store.close()
    }

    @Test func theAnswerOnTheWireIsTheRoutes() async throws {
        let bridge = try await TestBridge.make()
        let token = try await bridge.issueToken().token
        try await bridge.app.makeApplication().test(.live) { client in
            let connection = try RawConnection(port: try #require(client.port))
            var heads: [[String]] = []
            for _ in 0..<3 {
                connection.send("GET /wopibootstrapper HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\n\r\n")
                let text = await connection.receive(responses: 1)
                let parts = text.components(separatedBy: "\r\n\r\n")
                let lines = parts[0].components(separatedBy: "\r\n")
                #expect(lines.first == "HTTP/1.1 200 OK")
                #expect(try BootstrapResponse.decode(Data(parts[1].utf8)).bootstrap.signInName == "alice@contoso.com")
                #expect(lines.contains("Content-Length: \(parts[1].utf8.count)"))
                // Names and values, but for the values that differ on every answer.
                heads.append(lines.map { line in
                    ["X-Request-Id: ", "Date: ", "Content-Length: "].first { line.hasPrefix($0) } ?? line
                })
            }
            // The first answer came from the route (nothing was kept yet), the others from the pipeline.
            #expect(heads[1] == heads[0])
            #expect(heads[2] == heads[0])
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains(#"signin_bridge_bootstrap_responses_total{outcome="bootstrap"} 3"#))
                #expect(text.contains(#"http_requests_total{method="GET",route="/wopibootstrapper",status="200"} 3"#))
            }
        }
    }
}

extension BootstrapAnswers {
    /// The pipeline's bootstrap answer to `head`; nil for a challenge or anything it leaves to the application.
    func answer(to head: HTTPRequest) -> (head: HTTPResponse, body: ByteBuffer)? {
        guard case .bootstrap(let response, let body, _)? = pipelineAnswer(to: head) else { return nil }
        return (response, body)
    }
}
