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
}

/// The decision for one bootstrap request; `BootstrapRoute` turns it into bytes.
enum BootstrapOutcome: Sendable, Equatable {
    /// No usable credential: 401 with the configured challenge (PROTOCOL.md §1).
    case challenge
    /// 200 with the JSON body.
    case bootstrap(BootstrapResponse)
    /// `GET_NEW_ACCESS_TOKEN` for a WopiSrc this host does not serve, or without one.
    case unknownWopiSource
    case badRequest(String)
    case storeUnavailable
}

/// The WOPI bootstrapper's logic (seed 004; PROTOCOL.md §1): authenticate the access token, then answer with the
/// user's bootstrap plus what the ecosystem operation asks for. Each answer carries fresh WOPI access tokens.
struct BootstrapService: Sendable {
    let configuration: BridgeConfiguration
    let store: any Store
    let verifier: AccessTokenVerifier
    let wopiSources: WopiSourcePrefixes
    let users: RecentAnswers<String, UserRecord?>
    let ecosystemURL: AccessTokenURLTemplate
    let rootContainerURL: AccessTokenURLTemplate
    let now: @Sendable () -> Date

    /// `X-WOPI-SessionContext` is Office's echo of our own `sc` value; anything longer is not ours.
    static let maxSessionContextBytes = 1024

    init(configuration: BridgeConfiguration, store: any Store, verifier: AccessTokenVerifier, now: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.store = store
        self.verifier = verifier
        self.wopiSources = WopiSourcePrefixes(configuration.wopi.wopiSrcPrefixes)
        self.ecosystemURL = AccessTokenURLTemplate(configuration.wopi.ecosystemUrlTemplate)
        self.rootContainerURL = AccessTokenURLTemplate(configuration.wopi.rootContainer.urlTemplate)
        self.users = RecentAnswers(maxAge: TimeInterval(configuration.tokens.statusCacheMilliseconds) / 1000)
        self.now = now
    }

    func respond(to request: BootstrapRequest, logger: Logger) async -> BootstrapOutcome {
        let maxBytes = configuration.limits.maxHeaderValueBytes
        guard let credential = BearerCredential(authorization: request.authorization, maxBytes: maxBytes) else {
            return .challenge
        }
        let time = now()
        let grant: GrantRecord
        do {
            (_, grant) = try await verifier.verify(credential.token, at: time)
        } catch .storeUnavailable {
            return .storeUnavailable
        } catch {
            logger.debug("bootstrap token refused", metadata: ["reason": "\(error)"])
            return .challenge
        }
        do {
            guard let user = try await users.value(for: grant.userID, store: store, at: time, fetch: {
                try await store.user(id: grant.userID)
            }) else {
                logger.debug("bootstrap token of a removed user refused")
                return .challenge
            }
            if let sessionContext = request.sessionContext {
                guard sessionContext.utf8.count <= Self.maxSessionContextBytes else {
                    return .badRequest("X-WOPI-SessionContext is over \(Self.maxSessionContextBytes) bytes")
                }
                // Office sends it on every call; only a change is worth a write.
                if sessionContext != grant.sessionContext {
                    try await store.recordSessionContext(sessionContext, grant: grant.id)
                }
            }
            let operation = request.isPost ? request.operation : nil
            if operation == .getNewAccessToken {
                guard let wopiSrc = request.wopiSrc, wopiSources.contains(wopiSrc) else { return .unknownWopiSource }
                var response = try await plainBootstrap(user: user, grant: grant, at: time)
                let token = try await issueWopiToken(grant: grant, user: user, wopiSource: wopiSrc, at: time)
                response.accessTokenInfo = AccessTokenInfo(accessToken: token.value, expiresAt: token.expiresAt)
                return .bootstrap(response)
            }
            var response = try await plainBootstrap(user: user, grant: grant, at: time)
            if operation == .getRootContainer {
                let token = try await issueWopiToken(grant: grant, user: user, wopiSource: nil, at: time)
                let root = configuration.wopi.rootContainer
                response.rootContainerInfo = RootContainerInfo(
                    containerPointer: .init(url: rootContainerURL.filled(with: token.value), name: root.name),
                    containerInfo: .init(name: root.name))
            }
            // Any other operation (or none) is a plain bootstrap, as the docs say.
            return .bootstrap(response)
        } catch {
            logger.error("bootstrap store failure", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            return .storeUnavailable
        }
    }

    private func plainBootstrap(user: UserRecord, grant: GrantRecord, at time: Date) async throws -> BootstrapResponse {
        let token = try await issueWopiToken(grant: grant, user: user, wopiSource: nil, at: time)
        return BootstrapResponse(
            bootstrap: Bootstrap(
                ecosystemURL: ecosystemURL.filled(with: token.value),
                userId: user.id, signInName: user.signInName, userFriendlyName: user.friendlyName))
    }

    private func issueWopiToken(
        grant: GrantRecord, user: UserRecord, wopiSource: String?, at time: Date
    ) async throws -> (value: String, expiresAt: Date) {
        let secret = SecretToken()
        let issuedAt = Date(timeIntervalSince1970: (time.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
        let expiresAt = issuedAt.addingTimeInterval(TimeInterval(configuration.wopi.accessTokenLifetimeSeconds))
        try await store.issueWopiAccessToken(
            WopiAccessTokenRecord(
                digest: secret.digest, grantID: grant.id, userID: user.id, wopiSource: wopiSource, issuedAt: issuedAt,
                expiresAt: expiresAt))
        return (secret.value, expiresAt)
    }
}
