@testable import BridgeServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// `/health/live` and `/health/ready` over a socket, beside the documented `/auth/health`.
@Suite("Liveness and readiness probes")
struct HealthProbeTests {
    @Test func livenessAnswersOkWhateverTheStoreDoes() async throws {
        let bridge = try await TestBridge.make()
        try await bridge.store.close()
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/health/live", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(String(buffer: response.body) == #"{"status":"ok"}"#)
            }
        }
    }

    @Test func readinessNamesEachPart() async throws {
        let bridge = try await TestBridge.make()
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/health/ready", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == #"{"checks":{"signingKeys":"ok","store":"ok"},"status":"ready"}"#)
            }
        }
    }

    @Test func readinessIs503NamingTheStoreWhenItIsGone() async throws {
        let bridge = try await TestBridge.make()
        try await bridge.store.close()
        try await bridge.app.makeApplication().test(.live) { client in
            try await client.execute(uri: "/health/ready", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(json["status"] as? String == "not ready")
                #expect(json["notReady"] as? [String] == ["store"])
                let checks = try #require(json["checks"] as? [String: String])
                #expect(checks["signingKeys"] == "ok")
                #expect(checks["store"]?.hasPrefix("the store did not answer its health check") == true)
            }
            // /auth/health keeps its documented shape.
            try await client.execute(uri: "/auth/health", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains(#""store":"unavailable""#))
            }
        }
    }

    struct Unready: ReadinessCheck {
        var name: String { "upstreamKeys" }
        func problem() async -> String? { "the keys of upstream idp-a could not be read" }
    }

    @Test func aCheckAppendedToTheListTakesPart() async throws {
        let bridge = try await TestBridge.make()
        let checks = ReadinessChecks(checks: bridge.app.services.readiness.checks + [Unready()])
        let report = await checks.report()
        #expect(!report.isReady)
        #expect(report.notReady == ["upstreamKeys"])
        #expect(report.checks == ["store": "ok", "signingKeys": "ok", "upstreamKeys": "the keys of upstream idp-a could not be read"])
    }

    @Test func theSigningKeysCheckSignsWithTheCurrentKey() async throws {
        let keys = try await SigningKeySet.generate()
        #expect(await SigningKeysReadiness(keys: keys).problem() == nil)
    }
}
