import BridgeStore
import Foundation
import Logging
import SignInProtocol
import Testing

@testable import BridgeServer

/// The broker and app-to-app services without HTTP, taken from the composition root (`BridgeServices`): an input
/// value in, an answer value or a typed refusal out. Their routes are covered over the wire by `AppToAppFlowTests`
/// and scripts/test/upstream_broker.py.
@Suite("Broker and app-to-app services")
struct BrokerAndAppToAppServiceTests {
    static let logger = Logger(label: "test")
    /// The test configuration with one upstream and the broker on, for a native app client.
    static let brokerConfiguration = ConfigurationBuilder.testBridge
        .addingClient(#"{id: broker-app, public: true, redirectUris: ["com.example.broker:/auth"], grants: [authorization_code]}"#)
        .addingSections(UpstreamConfigurationTests.upstream)
        .addingSections("broker: {clientId: broker-app}")
    static let challenge = PKCE.Verifier.random().challenge(method: .s256).value

    static func login(_ parameters: [String: String], provider: String = "idp-a") -> BrokerRequest {
        BrokerRequest(provider: provider, parameters: .success(parameters))
    }

    @Test func brokerLoginRefusalsNeedNeitherTheProviderNorTheStore() async throws {
        let bridge = try await TestBridge.make(Self.brokerConfiguration)
        let broker = bridge.app.services.broker
        let rounds = bridge.store.roundTrips
        await #expect(throws: BrokerRefusal.unknownProvider) {
            try await broker.login(Self.login([:], provider: "nobody"), logger: Self.logger)
        }
        // The route's reading error is the answer, but only once the provider is known (404 first, as before).
        let unreadable = OAuthError(.invalidRequest, description: "code_challenge is sent twice")
        await #expect(throws: BrokerRefusal.request(unreadable)) {
            try await broker.login(BrokerRequest(provider: "idp-a", parameters: .failure(unreadable)), logger: Self.logger)
        }
        await #expect(throws: BrokerRefusal.request(.invalidRequest("code_challenge_method must be S256"))) {
            try await broker.login(
                Self.login(["code_challenge": Self.challenge, "code_challenge_method": "plain"]), logger: Self.logger)
        }
        await #expect(throws: BrokerRefusal.request(.invalidRequest("redirect_uri is not registered for the app"))) {
            try await broker.login(
                Self.login([
                    "code_challenge": Self.challenge, "code_challenge_method": "S256",
                    "redirect_uri": "com.example.broker:/auth.evil",
                ]), logger: Self.logger)
        }
        await #expect(throws: BrokerRefusal.request(.invalidRequest("this provider does not offer app_to_app"))) {
            try await broker.login(
                Self.login([
                    "code_challenge": Self.challenge, "code_challenge_method": "S256", "requested_flow": "app_to_app",
                ]), logger: Self.logger)
        }
        #expect(bridge.store.roundTrips == rounds)
        try await bridge.store.close()
    }

    @Test func brokerSessionIsRefusedAsAValueAndAStoreOutageIsTemporarilyUnavailable() async throws {
        let bridge = try await TestBridge.make(Self.brokerConfiguration)
        let broker = bridge.app.services.broker
        let verifier = PKCE.Verifier.random().value
        await #expect(throws: BrokerRefusal.request(.invalidRequest("sessionId is missing"))) {
            try await broker.session(Self.login(["code_verifier": verifier]), logger: Self.logger)
        }
        let unknown = Self.login(["sessionId": SecretToken().value, "code_verifier": verifier])
        await #expect(throws: BrokerRefusal.request(OAuthError(
            .invalidGrant, description: "the session is unknown, expired, used or the verifier is wrong"))) {
            try await broker.session(unknown, logger: Self.logger)
        }
        try await bridge.store.close()
        await #expect(throws: BrokerRefusal.request(.storeUnavailable)) {
            try await broker.session(unknown, logger: Self.logger)
        }
    }

    @Test func appToAppRefusesBeforeReadingAndMapsAnOutageToItsOwnCase() async throws {
        let bridge = try await TestBridge.make()
        let appToApp = bridge.app.services.appToApp
        await #expect(throws: BearerRefusal.noCredential) {
            try await appToApp.details(AppToAppDetailsRequest(authorization: nil, reference: "r"))
        }
        // The credential is judged before the body (RFC 6750 §3): an unreadable body without one is still a 401.
        await #expect(throws: BearerRefusal.noCredential) {
            try await appToApp.decide(AppToAppDecisionRequest(authorization: nil, body: .failure(.notUTF8)))
        }
        await #expect(throws: AppToAppResumeRefusal.expired) {
            try await appToApp.resume(AppToAppResumeRequest(token: "not a token", browserSecret: nil), logger: Self.logger)
        }
        let wellFormed = AppToAppResumeRequest(token: SecretToken().value, browserSecret: nil)
        await #expect(throws: AppToAppResumeRefusal.expired) {
            try await appToApp.resume(wellFormed, logger: Self.logger)
        }
        try await bridge.store.close()
        await #expect(throws: AppToAppResumeRefusal.storeUnavailable) {
            try await appToApp.resume(wellFormed, logger: Self.logger)
        }
    }

    @Test func aServerWithUpstreamsThatNeverCallsOneHasNoClientToShutDown() async throws {
        // Before the client was made on first use, dropping such an app without running it tripped AsyncHTTPClient's
        // "not shut down" check.
        let bridge = try await TestBridge.make(Self.brokerConfiguration)
        let client = try #require(bridge.app.services.upstreams.client)
        try await client.shutdown()
        let started = client.started
        try await client.shutdown()
        #expect(client.started !== started, "a call after a shutdown makes a new client")
        try await client.shutdown()
        try await bridge.store.close()
    }
}
