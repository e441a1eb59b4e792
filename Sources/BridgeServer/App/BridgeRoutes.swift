import BridgeHTTP
import BridgeStore
import Foundation
import Hummingbird
import Logging
import SignInProtocol

/// The HTTP surface. Routes are thin: pull values out of the request, ask a service, render the answer.
struct BridgeRoutes: Sendable {
    let services: BridgeServices
    /// Matches every bootstrap request and holds its answers' bytes, on whichever path it arrives (`BootstrapAnswers`).
    let bootstrapAnswers: BootstrapAnswers

    var configuration: BridgeConfiguration { services.configuration }
    var store: any Store { services.store }
    var keys: SigningKeySet { services.keys }
    var metrics: BridgeMetrics { services.metrics }
    var bootstrap: BootstrapService { services.bootstrap }
    var upstreams: UpstreamProviders { services.upstreams }
    var now: @Sendable () -> Date { services.now }

    func register(on router: Router<BridgeRequestContext>) {
        router.get("/wopibootstrapper") { request, context in await self.bootstrap(request, context) }
        router.post("/wopibootstrapper") { request, context in await self.bootstrap(request, context) }
        router.get("/auth/health") { _, _ in await self.health() }
        router.get("/metrics") { _, _ in
            self.metrics.observe(store: self.store, log: .standardError)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: self.metrics.exposition())))
        }
        let serverMetadata = JSONBody.bytes(AuthorizationServerMetadata(configuration: configuration))
        let resourceMetadata = JSONBody.bytes(ProtectedResourceMetadata(configuration: configuration))
        router.get("/.well-known/oauth-authorization-server") { _, _ in Self.json(serverMetadata, cacheable: true) }
        // OpenID Connect Discovery 1.0 §4: the same document (see `AuthorizationServerMetadata`).
        router.get("/.well-known/openid-configuration") { _, _ in Self.json(serverMetadata, cacheable: true) }
        router.get("/.well-known/oauth-protected-resource") { _, _ in Self.json(resourceMetadata, cacheable: true) }
        // Read per request: a rotation picked up from the key file shows at once (`SigningKeyFileWatch`).
        router.get("/.well-known/jwks.json") { _, _ in Self.json(self.keys.snapshot.jwks, cacheable: true) }
        registerPartnerAppAssociations(on: router)
        registerAuthorize(on: router)
        registerFirstPartyApps(on: router)
        registerWopiForwardAuth(on: router)
        registerEcosystem(on: router)
        registerProbes(on: router)
    }

    func bootstrap(_ request: Request, _ context: BridgeRequestContext) async -> Response {
        let outcome = await bootstrap.respond(to: bootstrapRequest(request), logger: context.logger)
        return response(for: outcome)
    }

    // Reading the headers and writing the answer happen outside `bootstrap`: an async function's frame holds every
    // temporary of its body while the request runs, and a connection keeps its deepest frames while it is open
    // (1,728 bytes when these were inlined there).

    @inline(never)
    func bootstrapRequest(_ request: Request) -> BootstrapRequest {
        bootstrapAnswers.fields(of: request.head).request
    }

    @inline(never)
    func response(for outcome: BootstrapOutcome) -> Response {
        bootstrapAnswers.answeredByRoute(outcome)
        let answer = bootstrapAnswers.rendered(outcome)
        return Response(
            status: answer.status, headers: answer.headers,
            body: answer.body.isEmpty ? .init() : .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    func health() async -> Response {
        let timestamp = LogTimestamp.utcSeconds(now())
        do {
            try await store.checkHealth()
            return Self.json(JSONBody.bytes(HealthReport(status: "ok", timestamp: timestamp, store: "ok")), cacheable: false)
        } catch {
            var response = Self.json(
                JSONBody.bytes(HealthReport(status: "unavailable", timestamp: timestamp, store: "unavailable")),
                cacheable: false)
            response.status = .serviceUnavailable
            return response
        }
    }

    /// How long clients may cache the discovery documents and the JWKS; a new signing key is published at least
    /// this long before it signs (`signingKeys.publishBeforeSigningSeconds` is checked against it).
    static let cacheMaxAgeSeconds = 300

    static func json(_ bytes: [UInt8], cacheable: Bool) -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if cacheable { headers[.cacheControl] = "public, max-age=\(cacheMaxAgeSeconds)" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}

/// Answers the unauthenticated bootstrap requests that `PipelineAnswerHandler` leaves to the application (a
/// `Connection` or `Expect` header, a request pipelined behind another) before the router and its middleware, with
/// `BootstrapAnswers`' challenge. Everything else goes to the router.
struct BootstrapFastPath<Inner: HTTPResponder>: HTTPResponder where Inner.Context == BridgeRequestContext {
    let inner: Inner
    let answers: BootstrapAnswers
    let challenge: Response

    init(inner: Inner, answers: BootstrapAnswers) {
        self.inner = inner
        self.answers = answers
        challenge = Response(status: .unauthorized, headers: answers.challengeFields)
    }

    func respond(to request: Request, context: BridgeRequestContext) async throws -> Response {
        if answers.isUnauthenticated(request.head) {
            let arrival = BootstrapAnswers.monotonicNanoseconds()
            answers.challengedOnFastPath(method: request.method, arrival: arrival, logger: context.logger)
            return challenge
        }
        return try await inner.respond(to: request, context: context)
    }
}
