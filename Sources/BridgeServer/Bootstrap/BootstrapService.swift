import BridgeStore
import Foundation
import Logging
import SignInProtocol

/// What `/wopibootstrapper` was asked, already pulled out of the HTTP request.
struct BootstrapRequest: Sendable {
    var authorization: String?
    var isPost: Bool
    var operation: EcosystemOperation?
    var wopiSrc: String?
    var sessionContext: String?

    /// The ecosystem operation asked for: only a POST carries one (Microsoft's "ecosystem operations" page).
    var postedOperation: EcosystemOperation? { isPost ? operation : nil }
}

/// The decision for one bootstrap request; `BootstrapRoute` turns it into bytes.
enum BootstrapOutcome: Sendable, Equatable {
    /// No usable credential: 401 with the configured challenge (Microsoft's Office app-to-app docs).
    case challenge
    /// A token that does not verify or is no longer active: the same challenge with `error="invalid_token"`
    /// (RFC 6750 §3.1).
    case invalidToken
    /// 200 with the JSON body.
    case bootstrap(BootstrapResponse)
    /// `GET_NEW_ACCESS_TOKEN` for a WopiSrc this host does not serve, or without one.
    case unknownWopiSource
    case badRequest(String)
    case storeUnavailable
    /// The store's answer failed for a reason of the server's own (`StoreUnavailable(classifying:)`): 500, never the
    /// outage's 503 (trying again cannot help) and never a refusal of the token.
    case serverFault
    /// The host's identity provider cannot be asked about a token it signed (its keys or introspection are out of
    /// reach): 503 `temporarily_unavailable` with `Retry-After` (RFC 6749 §4.1.2.1), never a refusal of the token.
    case providerUnavailable
}

/// The WOPI bootstrapper's logic (Microsoft's "WOPI bootstrapper" and "ecosystem operations" pages): verify the
/// access token's signature, then one store read checks its status and user (kept for a moment, `RecentAnswers`),
/// and the answer is the user's bootstrap plus what the ecosystem operation asks for, with WOPI access tokens sealed
/// by `WopiAccessTokenSeal` (nothing recorded: a changed session context is the only write).
struct BootstrapService: Sendable {
    let configuration: BridgeConfiguration
    let store: any TokenStore & StoreChanges
    let verifier: AccessTokenVerifier
    let seal: WopiAccessTokenSeal
    let statuses: RecentAnswers<String, BootstrapStatus>
    let wopiSources: WopiSourcePrefixes
    let ecosystemURL: AccessTokenURLTemplate
    let rootContainer: RootContainerLink
    /// The host's own provider's tokens, in place of ours (`identityProvider`); nil: our own tokens.
    let external: ExternalTokenVerifier?
    let now: @Sendable () -> Date

    /// `X-WOPI-SessionContext` is Office's echo of our own `sc` value; anything longer is not ours.
    static let maxSessionContextBytes = 1024

    init(
        configuration: BridgeConfiguration, store: any TokenStore & StoreChanges, verifier: AccessTokenVerifier, seal: WopiAccessTokenSeal,
        external: ExternalTokenVerifier? = nil, now: @escaping @Sendable () -> Date
    ) {
        self.configuration = configuration
        self.store = store
        self.verifier = verifier
        self.seal = seal
        self.statuses = RecentAnswers(maxAge: TimeInterval(configuration.tokens.statusCacheMilliseconds) / 1000)
        self.wopiSources = WopiSourcePrefixes(configuration.wopi.wopiSrcPrefixes)
        self.ecosystemURL = AccessTokenURLTemplate(configuration.wopi.ecosystemUrlTemplate)
        self.rootContainer = RootContainerLink(configuration.wopi.rootContainer)
        self.external = external
        self.now = now
    }

    func respond(to request: BootstrapRequest, logger: Logger) async -> BootstrapOutcome {
        let maxBytes = configuration.limits.maxHeaderValueBytes
        guard let token = BearerCredential(authorization: request.authorization, maxBytes: maxBytes)?.token else {
            return .challenge
        }
        let time = now()
        if let external { return await respondExternally(to: request, token: token, verifier: external, at: time, logger: logger) }
        let claims: AccessTokenClaims
        do {
            claims = try await verifier.verifiedClaims(token, at: time)
        } catch {
            logger.debug("bootstrap token refused", metadata: ["reason": "\(error)"])
            return .invalidToken
        }
        if let sessionContext = request.sessionContext, sessionContext.utf8.count > Self.maxSessionContextBytes {
            return .badRequest("X-WOPI-SessionContext is over \(Self.maxSessionContextBytes) bytes")
        }
        let unknownSource = asksForAForeignFile(request)
        // For a WopiSrc this host does not serve, the token's status alone decides between the challenge and the 404:
        // nothing is recorded, not even the session context.
        let step = BootstrapStep(accessTokenID: claims.jti.value, sessionContext: unknownSource ? nil : request.sessionContext)
        let status: BootstrapStatus
        do {
            status = try await callStore { try await bootstrapStatus(step, at: time) }
        } catch let outage as StoreUnavailable {
            logger.error("bootstrap store unavailable", metadata: ["reason": "\(outage.reason)"])
            return .storeUnavailable
        } catch {
            logger.error("bootstrap failed, and not a store outage", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            return .serverFault
        }
        guard let (grant, user) = Self.accepted(status, for: claims) else {
            logger.debug("bootstrap token refused by the store")
            return .invalidToken
        }
        if unknownSource { return .unknownWopiSource }
        return .bootstrap(answer(grant: grant, user: user, request: request, at: time))
    }

    /// The answer to a bootstrap that needs nothing awaited: the token's signature was verified before and the
    /// store's answer for it is kept (`RecentAnswers`), with no new session context to record. nil for anything
    /// else, refusals included: `respond` answers those. Lets `PipelineAnswerHandler` answer Office's repeated
    /// bootstraps inside the NIO pipeline, as it answers the challenge.
    func rememberedBootstrap(to request: BootstrapRequest, at time: Date) -> BootstrapResponse? {
        let maxBytes = configuration.limits.maxHeaderValueBytes
        if let external { return rememberedExternally(request, verifier: external, at: time) }
        guard let token = BearerCredential(authorization: request.authorization, maxBytes: maxBytes)?.token,
            let claims = try? verifier.rememberedClaims(token, at: time),
            (request.sessionContext?.utf8.count ?? 0) <= Self.maxSessionContextBytes, !asksForAForeignFile(request),
            let kept = keptStatus(
                BootstrapStep(accessTokenID: claims.jti.value, sessionContext: request.sessionContext),
                changeCounter: store.changeCounter, at: time),
            let (grant, user) = Self.accepted(kept, for: claims)
        else { return nil }
        return answer(grant: grant, user: user, request: request, at: time)
    }

    /// `GET_NEW_ACCESS_TOKEN` for a WopiSrc this host does not serve, or without one: answered 404.
    func asksForAForeignFile(_ request: BootstrapRequest) -> Bool {
        request.postedOperation == .getNewAccessToken && !(request.wopiSrc.map(wopiSources.contains) ?? false)
    }

    /// The grant and user of an active token, when they are the ones its claims name.
    static func accepted(_ status: BootstrapStatus, for claims: AccessTokenClaims) -> (GrantRecord, UserRecord)? {
        // A DPoP-bound token presented as a bearer token is refused (RFC 9449 §7.2); Office sends bearer tokens only.
        guard claims.cnf == nil, case .active(let grant, let user) = status, grant.subject == claims.sub.value,
            grant.clientID == claims.client_id
        else { return nil }
        return (grant, user)
    }

    /// The store's answer, or the one kept from a moment ago when it cannot have changed since (`RecentAnswers`) and
    /// there is no new session context to record.
    func bootstrapStatus(_ step: BootstrapStep, at time: Date) async throws -> BootstrapStatus {
        let counter = store.changeCounter
        if let kept = keptStatus(step, changeCounter: counter, at: time) { return kept }
        let status = try await store.bootstrap(step, at: time)
        statuses.keep(status, for: step.accessTokenID, changeCounter: counter, at: time)
        return status
    }

    /// The status kept for the step's token, unless the step has a session context to record (a new one on an
    /// active grant): then only the store will do.
    func keptStatus(_ step: BootstrapStep, changeCounter: UInt64, at time: Date) -> BootstrapStatus? {
        guard let kept = statuses.value(for: step.accessTokenID, changeCounter: changeCounter, at: time) else { return nil }
        if let context = step.sessionContext, case .active(let grant, _) = kept, grant.sessionContext != context { return nil }
        return kept
    }

    // Building the answer happens in a function of its own, outside `respond`: an async function's frame holds every
    // temporary of its body, and a connection keeps its deepest frames while it is open. With it inlined, this frame
    // was 4,432 bytes (the async function pointer's context size).

    @inline(never)
    func answer(
        grant: GrantRecord, user: UserRecord, request: BootstrapRequest, at time: Date, notAfter: Date? = nil
    ) -> BootstrapResponse {
        let operation = request.postedOperation
        let issuedAt = Milliseconds.date(Milliseconds.from(time))
        var expiresAt = issuedAt.addingTimeInterval(TimeInterval(configuration.wopi.accessTokenLifetimeSeconds))
        // An external user's WOPI tokens end with the provider's token: revoking there ends them (docs/identity-providers.md).
        if let notAfter, notAfter < expiresAt { expiresAt = Milliseconds.date(Milliseconds.from(notAfter)) }
        func token(for wopiSource: String?) -> String {
            seal.seal(WopiAccessTokenClaims(grantID: grant.id, wopiSource: wopiSource, issuedAt: issuedAt, expiresAt: expiresAt))
        }
        var response = BootstrapResponse(
            bootstrap: Bootstrap(
                ecosystemURL: ecosystemURL.filled(with: token(for: nil)),
                userId: user.id, signInName: user.signInName, userFriendlyName: user.friendlyName))
        if operation == .getNewAccessToken {
            response.accessTokenInfo = AccessTokenInfo(accessToken: token(for: request.wopiSrc), expiresAt: expiresAt)
        } else if operation == .getRootContainer {
            response.rootContainerInfo = RootContainerInfo(
                containerPointer: rootContainer.pointer(token: token(for: nil)),
                containerInfo: .init(name: rootContainer.name))
        }
        // Any other operation (or none) is a plain bootstrap, as the docs say.
        return response
    }
}

extension BootstrapOutcome {
    /// The outcome without its values: what `/metrics` counts and the status it is answered with.
    enum Kind: Sendable {
        case challenge, invalidToken, bootstrap, unknownWopiSource, badRequest, storeUnavailable, serverFault
        case providerUnavailable

        var status: Int {
            switch self {
            case .challenge, .invalidToken: 401
            case .bootstrap: 200
            case .unknownWopiSource: 404
            case .badRequest: 400
            case .storeUnavailable, .providerUnavailable: 503
            case .serverFault: 500
            }
        }
    }

    var kind: Kind {
        switch self {
        case .challenge: .challenge
        case .invalidToken: .invalidToken
        case .bootstrap: .bootstrap
        case .unknownWopiSource: .unknownWopiSource
        case .badRequest: .badRequest
        case .storeUnavailable: .storeUnavailable
        case .serverFault: .serverFault
        case .providerUnavailable: .providerUnavailable
        }
    }
}
