@testable import BridgeServer
import BridgeStore
import Foundation
import Logging
import SignInProtocol
import Testing

/// Each interaction step on its own: given where a parked request stands, what it needs (or nil, to let the next
/// step look). No page is drawn here; `InteractionRendererTests` draws the needs.
@Suite("Interaction steps decide")
struct InteractionStepTests {
    static let logger = Logger(label: "test")
    static let alice = UserRecord(id: "alice", signInName: "alice@contoso.com", friendlyName: "Alice")

    /// A request of `partner-app` as the authorize checks accept it, parked under a fresh id for a fresh browser.
    static func parked(
        _ configuration: BridgeConfiguration, extra: String = "", appCallbackURI: String? = nil
    ) throws -> ParkedInteraction {
        let query = "client_id=partner-app&redirect_uri=com.example.partner%3A%2Foauth2redirect&response_type=code"
            + "&state=s1&code_challenge=\(AuthorizeFixture.challenge)&code_challenge_method=S256" + extra
        guard case .accepted(let draft) = AuthorizePipeline(configuration: configuration).evaluate(try FormParameters.decode(query))
        else { throw ParkedRequestRefused() }
        var pending = PendingAuthorization(draft, language: .fallback)
        pending.appCallbackURI = appCallbackURI
        let client = try #require(configuration.clients.first { $0.id == "partner-app" })
        return ParkedInteraction(id: SecretToken().value, pending: pending, client: client, browserSecret: SecretToken().value)
    }

    struct ParkedRequestRefused: Error {}

    static func state(
        _ progress: AuthorizationProgress, _ parked: ParkedInteraction, upstream: String? = nil, code: SecretToken = SecretToken()
    ) -> InteractionState {
        InteractionState(progress: progress, code: code, parked: parked, requestedUpstream: upstream, logger: logger)
    }

    static func environment(_ bridge: TestBridge, _ configuration: BridgeConfiguration? = nil) -> AuthorizeEnvironment {
        let clock = bridge.clock
        return AuthorizeEnvironment(configuration: configuration ?? bridge.configuration, store: bridge.store, now: { clock.now })
    }

    static func issued(_ parked: ParkedInteraction, at now: Date) -> AuthorizationProgress {
        let grant = GrantRecord(userID: "alice", clientID: parked.client.id, scope: parked.pending.scope, createdAt: now)
        let code = AuthorizationCodeRecord(
            digest: SecretToken().digest, grantID: grant.id, clientID: parked.client.id,
            redirectURI: parked.pending.redirectURI, issuedAt: now, expiresAt: now.addingTimeInterval(60))
        return .issued(grant, code, alice)
    }

    @Test func finishStepIssuesTheCodeTheStoreCreatedAndNothingElse() async throws {
        let bridge = try await AuthorizeFixture.make()
        let environment = Self.environment(bridge)
        let parked = try Self.parked(bridge.configuration)
        let code = SecretToken()
        let progress = Self.issued(parked, at: bridge.clock.now)
        guard case .issued(let grant, _, _) = progress else { Issue.record("not issued"); return }
        #expect(try await FinishStep().need(Self.state(progress, parked, code: code), environment: environment) == .issueCode(code, grant))
        #expect(try await FinishStep().need(Self.state(.needsSignIn, parked), environment: environment) == nil)
        #expect(try await FinishStep().need(Self.state(.needsConsent(Self.alice), parked), environment: environment) == nil)
    }

    @Test func signInStepAsksForThePasswordOrRefusesPromptNone() async throws {
        let bridge = try await AuthorizeFixture.make()
        let environment = Self.environment(bridge)
        let parked = try Self.parked(bridge.configuration)
        #expect(try await SignInStep().need(Self.state(.needsSignIn, parked), environment: environment) == .signIn(retry: nil))
        let silent = try Self.parked(bridge.configuration, extra: "&prompt=none")
        let refusal = try await SignInStep().need(Self.state(.needsSignIn, silent), environment: environment)
        guard case .refuse(let error) = refusal else { Issue.record("\(String(describing: refusal))"); return }
        #expect(error.code == .loginRequired)
        #expect(try await SignInStep().need(Self.state(.needsConsent(Self.alice), parked), environment: environment) == nil)
    }

    @Test func consentStepAsksTheSignedInUserOrRefusesPromptNone() async throws {
        let bridge = try await AuthorizeFixture.make()
        let environment = Self.environment(bridge)
        let parked = try Self.parked(bridge.configuration)
        #expect(try await ConsentStep().need(Self.state(.needsConsent(Self.alice), parked), environment: environment) == .consent(Self.alice))
        let silent = try Self.parked(bridge.configuration, extra: "&prompt=none")
        let refusal = try await ConsentStep().need(Self.state(.needsConsent(Self.alice), silent), environment: environment)
        guard case .refuse(let error) = refusal else { Issue.record("\(String(describing: refusal))"); return }
        #expect(error.code == .consentRequired)
        #expect(try await ConsentStep().need(Self.state(.needsSignIn, parked), environment: environment) == nil)
    }

    @Test func appToAppWaitStepParksTheRequestUnderTheDeepLinksReference() async throws {
        let bridge = try await AuthorizeFixture.make()
        let environment = Self.environment(bridge)
        let parked = try Self.parked(bridge.configuration, appCallbackURI: "com.example.partner:/app-callback")
        let need = try await AppToAppWaitStep().need(Self.state(.needsSignIn, parked), environment: environment)
        guard case .waitForHostApp(let deepLink, _) = need else { Issue.record("\(String(describing: need))"); return }
        #expect(deepLink.hasPrefix(bridge.configuration.appToAppDeepLink + "?reference="))
        let reference = try #require(URLComponents(string: deepLink)?.queryItems?.first { $0.name == "reference" }?.value)
        let record = try #require(try await bridge.store.undecidedAppToApp(TokenDigest(of: reference), at: bridge.clock.now))
        #expect(record.interactionDigest == TokenDigest(of: parked.id) && record.clientID == "partner-app")
        // Not an app-to-app request, or signed in already: another step's business.
        let plain = try Self.parked(bridge.configuration)
        #expect(try await AppToAppWaitStep().need(Self.state(.needsSignIn, plain), environment: environment) == nil)
        #expect(try await AppToAppWaitStep().need(Self.state(.needsConsent(Self.alice), parked), environment: environment) == nil)
    }

    /// An upstream nobody answers (a closed loopback port): the step's need is the "not answering" problem, counted.
    static let downUpstream = """
        upstreams:
          - {id: idp-down, name: Down ID, issuer: "https://127.0.0.1:1", clientId: bridge}
        """

    @Test func upstreamSignInStepGoesToTheRequestedProviderOnlyWhenNobodyIsSignedIn() async throws {
        let bridge = try await AuthorizeFixture.make()
        let configuration = try ConfigurationLoader(environment: [:])
            .load(yaml: AuthorizeFixture.yaml + "\n" + Self.downUpstream).configuration
        let environment = Self.environment(bridge, configuration)
        let providers = UpstreamProviders(configuration: configuration)
        let metrics = BridgeMetrics()
        let step = UpstreamSignInStep(service: UpstreamSignInService(providers: providers, metrics: metrics))
        let parked = try Self.parked(configuration)
        #expect(try await step.need(Self.state(.needsSignIn, parked), environment: environment) == nil)
        #expect(try await step.need(Self.state(.needsConsent(Self.alice), parked, upstream: "idp-down"), environment: environment) == nil)
        #expect(try await step.need(Self.state(.needsSignIn, parked, upstream: "idp-nobody"), environment: environment) == .expired)
        let need = try await step.need(Self.state(.needsSignIn, parked, upstream: "idp-down"), environment: environment)
        guard case .upstreamProblem(.failed(let failure), let name) = need else { Issue.record("\(String(describing: need))"); return }
        #expect(failure.reason == .unreachable && name == "Down ID")
        let exposition = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(exposition.contains(#"signin_bridge_upstream_failures_total{upstream="idp-down",reason="unreachable"} 1"#))
        try await providers.client?.shutdown()
    }
}
