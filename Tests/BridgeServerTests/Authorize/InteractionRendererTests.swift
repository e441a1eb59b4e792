@testable import BridgeServer
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SignInProtocol
import Testing

/// The one renderer: each need a step can state becomes its page or redirect.
@Suite("Interaction renderer draws every need")
struct InteractionRendererTests {
    static func renderer(_ bridge: TestBridge) -> InteractionRenderer {
        let environment = InteractionStepTests.environment(bridge)
        return InteractionRenderer(
            pages: SignInPages(configuration: environment.configuration),
            completion: CodeIssuance(configuration: environment.configuration, store: bridge.store, now: environment.now))
    }

    /// The response's body as text (the pages are one buffer each).
    static func body(_ response: Response) async throws -> String {
        let collector = BodyCollector()
        try await response.body.write(CollectingWriter(collector: collector))
        return String(buffer: collector.buffer)
    }

    @Test func redirectsCarryTheCodeOrTheErrorToTheClientAndTheBrowserToTheProvider() async throws {
        let bridge = try await AuthorizeFixture.make()
        let renderer = Self.renderer(bridge)
        let parked = try InteractionStepTests.parked(bridge.configuration)
        let code = SecretToken()
        let grant = GrantRecord(userID: "alice", clientID: "partner-app", createdAt: bridge.clock.now)
        let issued = renderer.response(.issueCode(code, grant), for: parked, method: .get, logger: InteractionStepTests.logger)
        #expect(issued.status == .found)
        let location = try #require(issued.headers[.location])
        let query = try #require(URLComponents(string: location)?.queryItems)
        #expect(location.hasPrefix("com.example.partner:/oauth2redirect?"))
        #expect(query.contains(URLQueryItem(name: "code", value: code.value)) && query.contains(URLQueryItem(name: "state", value: "s1")))
        let refused = renderer.response(
            .refuse(OAuthError(.loginRequired, description: "x")), for: parked, method: .post, logger: InteractionStepTests.logger)
        #expect(refused.status == .seeOther)
        #expect(refused.headers[.location]?.hasPrefix("com.example.partner:/oauth2redirect?error=login_required") == true)
        let upstream = renderer.response(
            .upstream(location: "https://id.example.com/authorize?x=1"), for: parked, method: .get,
            logger: InteractionStepTests.logger)
        #expect(upstream.status == .found && upstream.headers[.location] == "https://id.example.com/authorize?x=1")
    }

    @Test func pagesAreDrawnForSignInConsentAndTheHostsApp() async throws {
        let bridge = try await AuthorizeFixture.make()
        let renderer = Self.renderer(bridge)
        let parked = try InteractionStepTests.parked(bridge.configuration)
        let log = InteractionStepTests.logger
        let signIn = renderer.response(.signIn(), for: parked, method: .get, logger: log)
        #expect(signIn.status == .ok)
        let signInPage = try await Self.body(signIn)
        #expect(signInPage.contains(parked.actionPrefix + "/signin") && signInPage.contains(parked.csrfToken))
        let consent = try await Self.body(renderer.response(.consent(InteractionStepTests.alice), for: parked, method: .get, logger: log))
        #expect(consent.contains(parked.actionPrefix + "/consent") && consent.contains("Alice"))
        let parkedPage = try await Self.body(
            renderer.response(.waitForHostApp(deepLink: "https://contoso.com/app-to-app?reference=r1", reference: TokenDigest(of: "r1")), for: parked, method: .get, logger: log))
        #expect(parkedPage.contains("https://contoso.com/app-to-app?reference=r1"))
        let expired = renderer.response(.expired, for: parked, method: .get, logger: log)
        #expect(expired.status == .badRequest)
    }

    @Test func aRetriedSignInKeepsTheNameAndAThrottledOneSaysWhenToComeBack() async throws {
        let bridge = try await AuthorizeFixture.make()
        let renderer = Self.renderer(bridge)
        let parked = try InteractionStepTests.parked(bridge.configuration)
        let wrong = renderer.signIn(parked, retry: SignInRetry(userName: "bob@contoso.com", problem: .wrongCredentials))
        #expect(wrong.status == .ok && wrong.headers[.retryAfter] == nil)
        #expect(try await Self.body(wrong).contains("bob@contoso.com"))
        let throttled = renderer.signIn(parked, retry: SignInRetry(userName: "bob", problem: .throttled(retryAfterSeconds: 125)))
        #expect(throttled.status == .tooManyRequests && throttled.headers[.retryAfter] == "125")
        #expect(try await Self.body(throttled).contains("3 minutes"))
    }

    @Test(arguments: [
        (UpstreamProblem.refused, 400, nil as String?, "did not work"),
        (.cancelled, 400, nil, "was cancelled"),
        (.failed(UpstreamFailure(.unreachable, "x")), 503, "30", "is not answering"),
        (.failed(UpstreamFailure(.idToken, "x")), 502, nil, "did not work"),
    ])
    func upstreamProblemsGetTheProvidersNameAndTheirStatus(problem: UpstreamProblem, status: Int, retryAfter: String?, text: String)
        async throws
    {
        let bridge = try await AuthorizeFixture.make()
        let response = Self.renderer(bridge).upstreamProblem(problem, providerName: "Example ID", language: .fallback)
        #expect(response.status.code == status && response.headers[.retryAfter] == retryAfter)
        let page = try await Self.body(response)
        #expect(page.contains("Example ID") && page.contains(text))
    }
}

final class BodyCollector {
    var buffer = ByteBuffer()
}

/// A `ResponseBodyWriter` that keeps what is written, to read a page drawn outside a server.
struct CollectingWriter: ResponseBodyWriter {
    let collector: BodyCollector

    mutating func write(_ buffer: ByteBuffer) async throws { collector.buffer.writeImmutableBuffer(buffer) }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
