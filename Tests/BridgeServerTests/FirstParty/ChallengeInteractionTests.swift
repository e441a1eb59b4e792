import BridgeStore
import Foundation
import Logging
import SignInProtocol
import Testing

@testable import BridgeServer
@testable import BridgeStoreSQLite

/// The authorization challenge endpoint runs the sign-in pages' `InteractionSteps` and draws each need natively
/// (draft-ietf-oauth-first-party-apps-04 §5.2); its one store step (`advanceAuthSession`) loses no chain to an
/// outage. Called through `app.services`, as the route does.
@Suite("Authorization challenge: interaction steps")
struct ChallengeInteractionTests {
    static let logger = Logger(label: "challenge-interaction-tests")

    /// A step added the documented way: first in the sequence, for `files-lite` only, asking for consent.
    struct ConsentForLiteStep: InteractionStep {
        func need(_ state: InteractionState, environment: AuthorizeEnvironment) async throws -> InteractionNeed? {
            guard case .needsSignIn = state.progress, state.client.id == "files-lite" else { return nil }
            return .consent(UserRecord(id: "demo", signInName: FirstPartyFixture.demo.name))
        }
    }

    /// A step that says `need` whatever the request's state.
    struct FixedNeedStep: InteractionStep {
        let fixed: InteractionNeed
        func need(_ state: InteractionState, environment: AuthorizeEnvironment) async throws -> InteractionNeed? { fixed }
    }

    /// A step whose store call fails (an outage after the store step saved the next chain).
    struct FailingStep: InteractionStep {
        func need(_ state: InteractionState, environment: AuthorizeEnvironment) async throws -> InteractionNeed? {
            guard case .needsSignIn = state.progress else { return nil }
            throw StoreUnavailable(reason: "test outage")
        }
    }

    static func endpoint(_ bridge: TestBridge, first step: (any InteractionStep)? = nil) -> AuthorizationChallengeEndpoint {
        var endpoint = bridge.app.services.authorizationChallenge
        if let step { endpoint.steps = InteractionSteps(sequence: [step] + endpoint.steps.sequence) }
        return endpoint
    }

    static func ask(_ endpoint: AuthorizationChallengeEndpoint, _ fields: [(String, String)]) async
        -> AuthorizationChallengeOutcome
    {
        var form = FormParameters()
        for (name, value) in fields { form.append(name, value) }
        return await endpoint.respond(
            to: ChallengeEndpointRequest(
                form: OAuthFormRequest(body: form.encoded, authorization: nil), clientAddress: "192.0.2.10"),
            logger: logger)
    }

    static func refusal(_ outcome: AuthorizationChallengeOutcome) -> AuthorizationChallengeError? {
        guard case .error(let error) = outcome.response else { return nil }
        return error
    }

    @Test func aStepRegisteredTheDocumentedWayAppliesToTheNativeSurface() async throws {
        let bridge = try await FirstPartyFixture.make()
        let endpoint = Self.endpoint(bridge, first: ConsentForLiteStep())
        let lite = try #require(Self.refusal(await Self.ask(endpoint, FirstPartyFixture.first(client: "files-lite"))))
        #expect(lite.error.code == .redirectToWeb)
        #expect(lite.requestURI?.hasPrefix("urn:ietf:params:oauth:request_uri:") == true)
        #expect(lite.authSession == nil)
        // The states it leaves alone go on to the next steps: the partner app is asked to sign in.
        let partner = try #require(Self.refusal(await Self.ask(endpoint, FirstPartyFixture.first())))
        #expect(partner.error.code == .insufficientAuthorization)
        #expect(partner.additionalFields["password_required"] == .bool(true))
    }

    /// Each `InteractionNeed` drawn as the draft's answer (§5.2.1, §5.2.2, §5.2.2.1.1).
    @Test func eachInteractionNeedIsDrawnAsTheDraftsAnswer() async throws {
        let bridge = try await FirstPartyFixture.make()
        let user = UserRecord(id: "demo", signInName: FirstPartyFixture.demo.name)
        let cases: [(InteractionNeed, OAuthError.Code, continues: Bool)] = [
            (.signIn(), .insufficientAuthorization, true),
            (.waitForHostApp(deepLink: "https://contoso.com/app?reference=r", reference: TokenDigest(of: "r")),
             .insufficientAuthorization, true),
            (.consent(user), .redirectToWeb, false),
            (.upstream(location: "https://idp.example.com/authorize"), .redirectToWeb, false),
            (.refuse(OAuthError(.loginRequired, description: "the user must sign in")), .loginRequired, false),
            (.upstreamProblem(.refused, providerName: "IdP"), .redirectToWeb, false),
            (.expired, .invalidSession, false),
        ]
        for (need, code, continues) in cases {
            let endpoint = Self.endpoint(bridge, first: FixedNeedStep(fixed: need))
            let answer = try #require(Self.refusal(await Self.ask(endpoint, FirstPartyFixture.first())), "\(need)")
            #expect(answer.error.code == code, "\(need)")
            #expect((answer.authSession != nil) == continues, "\(need)")
            if code == .redirectToWeb { #expect(answer.requestURI != nil, "\(need)") }
        }
        let waiting = try #require(Self.refusal(await Self.ask(
            Self.endpoint(bridge, first: FixedNeedStep(fixed: cases[1].0)), FirstPartyFixture.first())))
        #expect(waiting.additionalFields["app_to_app_deep_link"] == .string("https://contoso.com/app?reference=r"))
        #expect(waiting.additionalFields["password_required"] == nil)
        // The code: the store issued it and `FinishStep` said so.
        let demo = FirstPartyFixture.demo
        let issued = await Self.ask(
            bridge.app.services.authorizationChallenge,
            FirstPartyFixture.first([("username", demo.name), ("password", demo.password)]))
        #expect(issued.status == 200)
        guard case .code(let value) = issued.response else { Issue.record("\(issued)"); return }
        #expect(!value.isEmpty)
    }

    /// OpenID Connect Core §3.1.2.6: `prompt=none` is the steps' rule on both surfaces.
    @Test func promptNoneIsTheStepsRule() async throws {
        let bridge = try await FirstPartyFixture.make()
        let endpoint = bridge.app.services.authorizationChallenge
        let answer = try #require(Self.refusal(await Self.ask(endpoint, FirstPartyFixture.first([("prompt", "none")]))))
        #expect(answer.error.code == .loginRequired)
        #expect(answer.authSession == nil)
    }

    /// An outage inside the one store step (the next chain cannot be written, after the presented one was taken)
    /// rolls the whole step back: after the store returns, the same auth_session and password bring the code.
    @Test func anOutageDuringTheStoreStepLosesNoChain() async throws {
        let bridge = try await FirstPartyFixture.make()
        let endpoint = bridge.app.services.authorizationChallenge
        let asked = try #require(Self.refusal(await Self.ask(endpoint, FirstPartyFixture.first())))
        let chain = try #require(asked.authSession)
        let demo = FirstPartyFixture.demo
        let signIn: [(String, String)] = [
            ("client_id", "partner-app"), ("auth_session", chain), ("username", demo.name), ("password", demo.password),
        ]
        try await bridge.store.transaction("test outage") { tx in
            try tx.query("CREATE TRIGGER outage AFTER INSERT ON grants BEGIN SELECT RAISE(ABORT, 'outage'); END")
        }
        let failed = try #require(Self.refusal(await Self.ask(endpoint, signIn)))
        #expect(failed.error.code == .temporarilyUnavailable)
        #expect(failed.authSession == nil)
        try await bridge.store.transaction("test outage over") { tx in try tx.query("DROP TRIGGER outage") }
        let retried = await Self.ask(endpoint, signIn)
        guard case .code(let code) = retried.response else { Issue.record("\(retried)"); return }
        #expect(!code.isEmpty)
        // The step that succeeded used the presented value up.
        let replay = try #require(Self.refusal(await Self.ask(endpoint, signIn)))
        #expect(replay.error.code == .invalidSession)
    }

    /// A step failing after the store step saved the next chain: `temporarily_unavailable` with `Retry-After` and
    /// that chain's auth_session, which continues the request once the store is back.
    @Test func anOutageAfterTheStoreStepAnswersWithTheSavedChain() async throws {
        let bridge = try await FirstPartyFixture.make()
        let failing = Self.endpoint(bridge, first: FailingStep())
        let outcome = await Self.ask(failing, FirstPartyFixture.first())
        #expect(outcome.status == 503)
        #expect(outcome.retryAfterSeconds == Int(StoreOutage.retryAfterSeconds))
        let answer = try #require(Self.refusal(outcome))
        #expect(answer.error.code == .temporarilyUnavailable)
        let chain = try #require(answer.authSession)
        let demo = FirstPartyFixture.demo
        let signedIn = await Self.ask(
            bridge.app.services.authorizationChallenge,
            [("client_id", "partner-app"), ("auth_session", chain), ("username", demo.name), ("password", demo.password)])
        guard case .code = signedIn.response else { Issue.record("\(signedIn)"); return }
    }
}
