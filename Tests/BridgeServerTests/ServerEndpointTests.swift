@testable import BridgeHTTP
@testable import BridgeServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import Testing

@Suite("Health, well-known, metrics and hostile input")
struct ServerEndpointTests {
    @Test func healthAnswersOkWithATimestampAndTheStoreCheck() async throws {
        let bridge = try await TestBridge.make()
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/auth/health", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(json?["status"] as? String == "ok")
                #expect(json?["store"] as? String == "ok")
                #expect(json?["timestamp"] as? String == "2027-01-15T08:00:00Z")
            }
        }
    }

    @Test func healthSaysUnavailableWhenTheStoreIsGone() async throws {
        let bridge = try await TestBridge.make()
        try await bridge.store.close()
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/auth/health", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains(#""status":"unavailable""#))
            }
        }
    }

    @Test func metadataListsOnlyWhatExistsAndJWKSHoldsTheSigningKey() async throws {
        let bridge = try await TestBridge.make()
        let token = try await bridge.issueToken().token
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/.well-known/oauth-authorization-server", method: .get) { response in
                #expect(response.status == .ok)
                let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(json["issuer"] as? String == "https://contoso.com")
                #expect(json["jwks_uri"] as? String == "https://contoso.com/.well-known/jwks.json")
                #expect(json["token_endpoint"] as? String == "https://contoso.com/oauth2/token")
            }
            try await client.execute(uri: "/.well-known/oauth-protected-resource", method: .get) { response in
                let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(json["resource"] as? String == "https://contoso.com")
                #expect(json["authorization_servers"] as? [String] == ["https://contoso.com"])
            }
            try await client.execute(uri: "/.well-known/jwks.json", method: .get) { response in
                #expect(response.status == .ok)
                // Verify the issued token with nothing but the published JWKS.
                let keys = try await JWTKeyCollection().add(jwksJSON: String(buffer: response.body))
                let header = try #require(token.split(separator: ".").first)
                let headerJSON = try #require(Data(base64URL: String(header)))
                #expect(String(decoding: headerJSON, as: UTF8.self).contains(#""typ":"at+jwt""#))
                _ = try await keys.verify(token, as: UnverifiedClaims.self)
            }
        }
    }

    @Test func metricsArePrometheusText() async throws {
        let bridge = try await TestBridge.make()
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/wopibootstrapper", method: .get) { _ in }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
                #expect(String(buffer: response.body).contains(#"signin_bridge_bootstrap_responses_total{outcome="challenge"} 1"#))
            }
        }
    }

    /// What a soak samples to tell a leak from a backlog or a cache: the process's RSS, SQLite's own memory and the
    /// log writer's queue, read at each scrape.
    @Test func metricsCarryMemoryAndTheLogQueue() async throws {
        let bridge = try await TestBridge.make()
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/auth/health", method: .get) { _ in }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let samples = Dictionary(
                    String(buffer: response.body).split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
                        line.split(separator: " ").count == 2
                            ? (String(line.split(separator: " ")[0]), Double(line.split(separator: " ")[1])) : nil
                    }, uniquingKeysWith: { first, _ in first })
                let resident = try #require(samples["process_resident_memory_bytes"] ?? nil)
                #expect(resident > 4 * 1024 * 1024 && resident < 4 * 1024 * 1024 * 1024)
                #expect((samples["signin_bridge_store_engine_memory_bytes"] ?? nil).map { $0 > 0 } == true)
                #expect((samples["signin_bridge_log_queue_records"] ?? nil).map { $0 >= 0 } == true)
                #expect((samples["signin_bridge_log_queue_peak_records"] ?? nil).map { $0 >= 0 } == true)
            }
        }
    }

    /// Errors the router or the limits raise are one line of text with its type, as schemas/openapi.yaml says.
    @Test func routerAndLimitErrorsAreOneLineOfText() async throws {
        let bridge = try await TestBridge.make()
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/nothing-here", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
                #expect(String(buffer: response.body) == "not found\n")
            }
            let long = String(repeating: "x", count: 9000)
            try await client.execute(uri: "/auth/health", method: .get, headers: [HTTPField.Name("X-Big")!: long]) { response in
                #expect(response.status.code == 431)
                #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
                #expect(String(buffer: response.body) == "header x-big is over 8192 bytes\n")
            }
        }
    }

    @Test func residentPagesAreTheSecondFieldOfStatm() {
        #expect(ResidentMemory.residentPages(statm: Array("5123 1570 988 2 0 1204 0\n".utf8)) == 1570)
        #expect(ResidentMemory.residentPages(statm: Array("5123".utf8)) == nil)
        #expect(ResidentMemory.residentPages(statm: Array("5123 15x0 988".utf8)) == nil)
    }

    @Test func hostileInputGetsA4xxWithTheSecurityHeadersNever500() async throws {
        let bridge = try await TestBridge.make()
        let long = String(repeating: "x", count: 9000)
        let cases: [(String, HTTPRequest.Method, HTTPFields, ByteBuffer?, Int)] = [
            ("/nothing-here", .get, [:], nil, 404),
            ("/wopibootstrapper?%zz=%", .get, [:], nil, 401),
            ("/wopibootstrapper", .delete, [:], nil, 404),
            ("/auth/health", .get, [HTTPField.Name("X-WOPI-WopiSrc")!: long], nil, 431),
            ("/wopibootstrapper", .get, [.authorization: "Bearer " + long], nil, 431),
            ("/wopibootstrapper", .post, [.authorization: "Bearer x"], ByteBuffer(repeating: 0x41, count: 70_000), 413),
            ("/auth/health/../../etc/passwd", .get, [:], nil, 404),
        ]
        try await bridge.app.makeApplication().test(.live) { client in
            for (uri, method, headers, body, expected) in cases {
                try await client.execute(uri: uri, method: method, headers: headers, body: body) { response in
                    #expect(Int(response.status.code) == expected, "\(method) \(uri)")
                    #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff", "\(uri)")
                    #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true, "\(uri)")
                }
            }
        }
    }
}

/// Decodes any payload without checking claims: the test checks the signature only.
struct UnverifiedClaims: JWTPayload {
    var jti: IDClaim
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

extension Data {
    init?(base64URL: String) {
        var base64 = base64URL.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        self.init(base64Encoded: base64)
    }
}
