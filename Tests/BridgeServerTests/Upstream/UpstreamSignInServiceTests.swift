@testable import BridgeServer
import BridgeStore
import Foundation
import Logging
import SignInProtocol
import Testing

/// The providers' callback as values: what `UpstreamSignInService.callback` makes of each answer, before any page.
/// The provider here never answers (a closed loopback port), so the callbacks that get as far as asking it end as
/// an outage; the signed-in path is run against a live provider by `scripts/test/upstream_broker.py`.
@Suite("Upstream sign-in callback")
struct UpstreamSignInServiceTests {
    let bridge: TestBridge
    let environment: AuthorizeEnvironment
    let providers: UpstreamProviders
    let metrics = BridgeMetrics()
    var service: UpstreamSignInService { UpstreamSignInService(providers: providers, metrics: metrics) }
    let logger = Logger(label: "test")

    init() async throws {
        bridge = try await AuthorizeFixture.make()
        let configuration = try ConfigurationLoader(environment: [:])
            .load(yaml: AuthorizeFixture.yaml + "\n" + InteractionStepTests.downUpstream).configuration
        environment = InteractionStepTests.environment(bridge, configuration)
        providers = UpstreamProviders(configuration: configuration)
    }

    /// A login started from the sign-in page of `browser`'s interaction; returns its `state`.
    func startLogin(browser: String, broker: SecretToken? = nil) async throws -> String {
        let attempt = UpstreamAttempt()
        let now = bridge.clock.now
        try await bridge.store.startUpstreamLogin(
            attempt.record(
                upstream: "idp-down", at: now, lifetime: 600, interactionID: broker == nil ? "interaction-1" : nil,
                browser: broker == nil ? TokenDigest(of: browser) : nil, brokerSessionID: broker?.value),
            broker: broker.map {
                BrokerSessionRecord(
                    digest: $0.digest, upstreamID: "idp-down", clientID: "partner-app",
                    redirectURI: "com.example.partner:/oauth2redirect", codeChallenge: AuthorizeFixture.challenge,
                    createdAt: now, expiresAt: now.addingTimeInterval(180))
            })
        return attempt.state.value
    }

    func failures(_ reason: String) -> Bool {
        String(decoding: metrics.exposition(), as: UTF8.self)
            .contains(#"signin_bridge_upstream_failures_total{upstream="idp-down",reason="\#(reason)"} 1"#)
    }

    func shutDown() async throws { try await providers.client?.shutdown() }

    @Test func anUnknownProviderOrAStateNobodyIssuedIsRefused() async throws {
        let unknown = try await service.callback(
            UpstreamCallback(upstream: "idp-nobody", state: "s", browserSecret: "b"), environment: environment, logger: logger)
        let noState = try await service.callback(UpstreamCallback(upstream: "idp-down"), environment: environment, logger: logger)
        let forged = try await service.callback(
            UpstreamCallback(upstream: "idp-down", state: String(repeating: "A", count: 43), code: "x"),
            environment: environment, logger: logger)
        try await shutDown()
        guard case .unknownUpstream = unknown else { Issue.record("\(unknown)"); return }
        guard case .problem(.refused, "Down ID") = noState, case .problem(.refused, "Down ID") = forged else {
            Issue.record("\(noState) \(forged)")
            return
        }
        #expect(String(decoding: metrics.exposition(), as: UTF8.self)
            .contains(#"signin_bridge_upstream_failures_total{upstream="idp-down",reason="state"} 2"#))
    }

    /// RFC 6749 §10.12: the state is single use and bound to the browser that started the login.
    @Test func theCallbackCountsOnceAndOnlyInTheBrowserThatStartedTheLogin() async throws {
        let browser = SecretToken().value
        let state = try await startLogin(browser: browser)
        let elsewhere = try await service.callback(
            UpstreamCallback(upstream: "idp-down", state: state, code: "x", browserSecret: SecretToken().value),
            environment: environment, logger: logger)
        let replayed = try await service.callback(
            UpstreamCallback(upstream: "idp-down", state: state, code: "x", browserSecret: browser),
            environment: environment, logger: logger)
        try await shutDown()
        guard case .otherBrowser = elsewhere, case .problem(.refused, _) = replayed else {
            Issue.record("\(elsewhere) \(replayed)")
            return
        }
    }

    @Test func aProviderErrorIsACancelledSignInAndAProviderThatIsDownAnOutage() async throws {
        let browser = SecretToken().value
        let declined = try await service.callback(
            UpstreamCallback(upstream: "idp-down", state: try await startLogin(browser: browser), error: "access_denied", browserSecret: browser),
            environment: environment, logger: logger)
        let down = try await service.callback(
            UpstreamCallback(upstream: "idp-down", state: try await startLogin(browser: browser), code: "x", browserSecret: browser),
            environment: environment, logger: logger)
        try await shutDown()
        guard case .problem(.cancelled, "Down ID") = declined else { Issue.record("\(declined)"); return }
        guard case .problem(.failed(let failure), "Down ID") = down else { Issue.record("\(down)"); return }
        #expect(failure.reason == .unreachable)
        #expect(failures("authorization_error") && failures("unreachable"))
    }

    @Test func aBrokerLoginIsHandedToTheBroker() async throws {
        let session = SecretToken()
        let state = try await startLogin(browser: "", broker: session)
        let outcome = try await service.callback(
            UpstreamCallback(upstream: "idp-down", state: state, code: "x"), environment: environment, logger: logger)
        try await shutDown()
        guard case .brokerLogin(let login, let sessionID, let record, _, _) = outcome else { Issue.record("\(outcome)"); return }
        #expect(sessionID == session.value && login.brokerSessionID == session.value && record?.digest == session.digest)
    }
}
