@testable import BridgeServer
import HTTPTypes
import Testing

/// `BootstrapAnswers` is the one reading of a bootstrap head: which requests are the bootstrapper's, and which path
/// may answer them (the pipeline, the fast path before the router, or only the route).
@Suite("Bootstrap answers: matching")
struct BootstrapAnswersTests {
    static func head(_ method: HTTPRequest.Method = .get, _ path: String = "/wopibootstrapper", _ fields: HTTPFields = [:]) -> HTTPRequest {
        HTTPRequest(method: method, scheme: nil, authority: "t", path: path, headerFields: fields)
    }

    static func isPipelineChallenge(_ answer: BootstrapAnswers.PipelineAnswer?) -> Bool {
        if case .challenge? = answer { return true }
        return false
    }

    @Test func aHeadWithoutCredentialIsTheChallengeInThePipelineUnlessTheConnectionMustSeeIt() async throws {
        let bridge = try await TestBridge.make()
        let answers = RememberedBootstrapTests.remembered(bridge)
        let pipeline: [HTTPRequest] = [
            Self.head(), Self.head(.post), Self.head(.get, "/wopibootstrapper?x=1"),
            Self.head(.post, "/wopibootstrapper", [.contentLength: "5"]),  // the body is dropped
            Self.head(.get, "/wopibootstrapper", [.userAgent: String(repeating: "a", count: 100_000)]),
        ]
        for head in pipeline {
            #expect(Self.isPipelineChallenge(answers.pipelineAnswer(to: head)), "\(head)")
            #expect(answers.isUnauthenticated(head), "\(head)")
        }
        // Hummingbird's connection handling must see these; the fast path then answers them.
        for head in [Self.head(.get, "/wopibootstrapper", [.connection: "close"]), Self.head(.post, "/wopibootstrapper", [.expect: "100-continue"])] {
            #expect(answers.pipelineAnswer(to: head) == nil, "\(head)")
            #expect(answers.isUnauthenticated(head), "\(head)")
        }
        // Not the bootstrapper's, or with a credential (even a blank one): the router's.
        let others: [HTTPRequest] = [
            Self.head(.put), Self.head(.head), Self.head(.get, "/wopibootstrapperx"), Self.head(.get, "/wopibootstrapper/"),
            Self.head(.get, "/auth/health"), Self.head(.get, "/wopibootstrapper", [.authorization: "Bearer "]),
            Self.head(.get, "/wopibootstrapper", [.authorization: "Bearer a.b.c"]),
        ]
        for head in others {
            #expect(answers.pipelineAnswer(to: head) == nil, "\(head)")
            #expect(!answers.isUnauthenticated(head), "\(head)")
        }
        try await bridge.store.close()
    }

    @Test func theRouteReadsTheValuesAFieldGivenTwiceJoined() async throws {
        let bridge = try await TestBridge.make()
        let answers = RememberedBootstrapTests.remembered(bridge)
        let operation = HTTPField.Name("X-WOPI-EcosystemOperation")!
        let read = answers.fields(of: Self.head(
            .post, "/wopibootstrapper",
            [.authorization: "Bearer a", .authorization: "Bearer b", operation: "GET_ROOT_CONTAINER", HTTPField.Name("X-WOPI-WopiSrc")!: "w"]))
        #expect(read.request.authorization == "Bearer a, Bearer b")
        #expect(read.request.postedOperation == .getRootContainer)
        #expect(read.request.wopiSrc == "w")
        #expect(read.needsRoute)
        #expect(!answers.fields(of: Self.head(.get, "/wopibootstrapper", [.authorization: "Bearer a"])).needsRoute)
        try await bridge.store.close()
    }
}
