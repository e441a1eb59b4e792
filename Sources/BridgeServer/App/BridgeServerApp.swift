import BridgeHTTP
import BridgeStore
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Everything one running server needs, assembled once: configuration, store, keys, metrics, clock.
/// `makeApplication()` gives the Hummingbird application; `signin-bridge serve` and the tests both go through it.
public struct BridgeServerApp: Sendable {
    public let configuration: BridgeConfiguration
    public let store: any Store
    public let keys: SigningKeySet
    /// The file `keys` came from, reread when it changes (`SigningKeyFileWatch`); nil: keys made in memory (tests).
    public let keyFile: String?
    public let metrics: BridgeMetrics
    public let logger: Logger
    public let now: @Sendable () -> Date
    /// Every service, built once here (the composition root); the routes and the tests take theirs from it.
    let services: BridgeServices

    public init(
        configuration: BridgeConfiguration, store: any Store, keys: SigningKeySet, keyFile: String? = nil,
        metrics: BridgeMetrics = BridgeMetrics(), logger: Logger = Logger(label: "signin-bridge"),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.store = store
        self.keys = keys
        self.keyFile = keyFile
        self.metrics = metrics
        self.logger = logger
        self.now = now
        services = BridgeServices(configuration: configuration, store: store, keys: keys, metrics: metrics, now: now)
    }

    /// Runs Swift concurrency jobs on NIO's event loop threads instead of a second thread pool, so a request no longer
    /// hops between the I/O thread and the cooperative pool (measured in scripts/bench/bootstrap.sh). Call once, first
    /// thing in the process, as Vapor's entry point does; false when it could not be installed.
    @discardableResult
    public static func runConcurrencyOnEventLoops() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }

    public var accessTokenIssuer: AccessTokenIssuer { services.accessTokens }

    /// What a host's WOPI endpoints check the WOPI access tokens of this server's bootstrap answers with.
    public var wopiAccessTokenVerifier: WopiAccessTokenVerifier { services.wopiAccessTokens }

    /// Creates the configuration's users that the store does not have yet. A user already in the store is left as
    /// it is, so that a password set with `signin-bridge user passwd` survives a restart (Office manual test 10).
    public func seedUsers() async throws {
        for user in configuration.users where try await store.user(id: user.id) == nil {
            do {
                try await store.saveUser(
                    UserRecord(
                        id: user.id, signInName: user.signInName, friendlyName: user.friendlyName,
                        passwordHash: user.passwordHash, email: user.email, phoneNumber: user.phoneNumber))
            } catch let error as StoreError {
                // Two instances starting together over one database both saw no user: the other one saved it.
                guard case .duplicate = error, try await store.user(id: user.id) != nil else { throw error }
            }
        }
    }

    /// The application. The store is closed by the application's own service group after the HTTP server has
    /// finished its in-flight requests (services shut down in reverse order).
    public func makeApplication(
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let https = configuration.issuer.lowercased().hasPrefix("https:")
        let securityFields = SecurityHeaders.fields(https: https)
        let challenge = ChallengeResponse(configuration: configuration, securityFields: securityFields)
        let answers = BootstrapAnswers(
            service: services.bootstrap, challenge: challenge, securityFields: securityFields, metrics: metrics,
            logger: configuration.log.requests ? logger : nil)
        let routes = BridgeRoutes(services: services, bootstrapAnswers: answers)
        let forwardAuth = WopiForwardAuthPipeline(
            endpoint: services.wopiForwardAuth, securityFields: securityFields, metrics: metrics,
            logger: configuration.log.requests ? logger : nil)
        let pipelineAnswerers: [any PipelineAnswerer] = [answers, forwardAuth]

        let router = Router(context: BridgeRequestContext.self)
        router.add(middleware: ResponseHardeningMiddleware(fields: securityFields))
        if configuration.log.requests { router.add(middleware: RequestLogMiddleware()) }
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics.http))
        router.add(
            middleware: RequestLimitsMiddleware(
                maxHeaderValueBytes: configuration.limits.maxHeaderValueBytes,
                maxBodyBytes: configuration.limits.maxBodyBytes))
        routes.register(on: router)
        OpenIDRoutes(services: services).register(on: router)
        OAuthRoutes(services: services).register(on: router, logger: logger)

        let responder = BootstrapFastPath(inner: router.buildResponder(), answers: answers)
        let limits = configuration.limits
        let http1 = HTTP1Channel.Configuration(
            idleTimeout: .seconds(Int64(limits.idleTimeoutSeconds)),
            httpDecoderConfiguration: .init(
                // Above the per-value limit, so that RequestLimitsMiddleware answers 431 with the usual headers;
                // only grossly oversized heads get the HTTP parser's bare 400.
                maxHeaderFieldSize: 4 * limits.maxHeaderValueBytes, maxHeaderListSize: 8 * limits.maxHeaderValueBytes,
                maxHeaderFieldCount: 100))
        return Application(
            responder: responder,
            server: HTTPServerBuilder { responder in
                BootstrapHTTP1Channel(responder: responder, configuration: http1, answerers: pipelineAnswerers)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.listen.host, port: configuration.listen.port)),
            // Shut down in reverse order: the purge stops before the store closes.
            services: [StoreShutdownService(store: store, logger: logger)] + purgeServices
                + (keyFile.map { [SigningKeyFileWatch(path: $0, keys: keys, logger: logger)] } ?? [])
                + (services.upstreams.client.map { [UpstreamClientShutdown(client: $0, logger: logger)] } ?? []),
            onServerRunning: onServerRunning,
            logger: logger)
    }
}

extension BridgeServerApp {
    /// The periodic purge of expired records, unless `store.purgeIntervalSeconds` is 0.
    var purgeServices: [any Service] {
        let seconds = configuration.store.purgeIntervalSeconds
        guard seconds > 0 else { return [] }
        return [
            ExpiredRecordsPurge(
                store: store, interval: .seconds(seconds), keep: TimeInterval(configuration.signIn.throttle.windowSeconds),
                now: now, logger: logger)
        ]
    }
}

extension BridgeServerApp {
    /// Hashes passwords at the configured bcrypt cost.
    var passwordHasher: PasswordHasher { services.authorizeEnvironment.hasher }

    /// Hashes `password` with the configured bcrypt cost.
    public func hashPassword(_ password: String) async throws -> String {
        try await passwordHasher.hash(password)
    }

    /// Sets a new password, then ends every session of the user and revokes every grant (with it each access,
    /// WOPI and refresh token), so every app must sign in again (Office manual test 10). Nil for an unknown user.
    /// One store step; the bcrypt hash is computed before it, so no transaction waits for it.
    public func changePassword(userID: String, to password: String) async throws -> PasswordChange? {
        let hash = try await hashPassword(password)
        return try await store.changePassword(userID: userID, passwordHash: hash, at: now())
    }
}
