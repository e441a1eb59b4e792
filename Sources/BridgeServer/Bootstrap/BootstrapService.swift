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
    /// No usable credential: 401 with the configured challenge (Microsoft's Office app-to-app docs).
    case challenge
    /// 200 with the JSON body.
    case bootstrap(BootstrapResponse)
    /// `GET_NEW_ACCESS_TOKEN` for a WopiSrc this host does not serve, or without one.
    case unknownWopiSource
    case badRequest(String)
    case storeUnavailable
}

/// The WOPI bootstrapper's logic (Microsoft's "WOPI bootstrapper" and "ecosystem operations" pages): verify the
/// access token's signature, then one store call checks its status and user and records the answer's fresh WOPI
/// access tokens, and the answer is the user's bootstrap plus what the ecosystem operation asks for.
struct BootstrapService: Sendable {
    let configuration: BridgeConfiguration
    let store: any Store
    let verifier: AccessTokenVerifier
    let wopiSources: WopiSourcePrefixes
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
        self.now = now
    }

    func respond(to request: BootstrapRequest, logger: Logger) async -> BootstrapOutcome {
        let maxBytes = configuration.limits.maxHeaderValueBytes
        guard let credential = BearerCredential(authorization: request.authorization, maxBytes: maxBytes) else {
            return .challenge
        }
        let time = now()
        let claims: AccessTokenClaims
        do {
            claims = try await verifier.verifiedClaims(credential.token, at: time)
        } catch {
            logger.debug("bootstrap token refused", metadata: ["reason": "\(error)"])
            return .challenge
        }
        if let sessionContext = request.sessionContext, sessionContext.utf8.count > Self.maxSessionContextBytes {
            return .badRequest("X-WOPI-SessionContext is over \(Self.maxSessionContextBytes) bytes")
        }
        let operation = request.isPost ? request.operation : nil
        do {
            if operation == .getNewAccessToken, !(request.wopiSrc.map(wopiSources.contains) ?? false) {
                // Nothing to record: the token's status alone decides between the challenge and the 404.
                guard case .active(_, let grant) = try await store.accessTokenStatus(tokenID: claims.jti.value, at: time),
                    grant.subject == claims.sub.value
                else { return .challenge }
                return .unknownWopiSource
            }
            let ecosystemToken = newWopiToken(for: nil, at: time)
            var tokens = [ecosystemToken]
            if operation == .getNewAccessToken || operation == .getRootContainer {
                tokens.append(newWopiToken(for: operation == .getNewAccessToken ? request.wopiSrc : nil, at: time))
            }
            let step = BootstrapStep(
                accessTokenID: claims.jti.value, wopiTokens: tokens.map(\.draft), sessionContext: request.sessionContext)
            guard case .active(let grant, let user) = try await store.bootstrap(step, at: time),
                grant.subject == claims.sub.value, grant.clientID == claims.client_id
            else {
                logger.debug("bootstrap token refused by the store")
                return .challenge
            }
            var response = BootstrapResponse(
                bootstrap: Bootstrap(
                    ecosystemURL: ecosystemURL.filled(with: ecosystemToken.value),
                    userId: user.id, signInName: user.signInName, userFriendlyName: user.friendlyName))
            if operation == .getNewAccessToken {
                response.accessTokenInfo = AccessTokenInfo(accessToken: tokens[1].value, expiresAt: tokens[1].draft.expiresAt)
            } else if operation == .getRootContainer {
                let root = configuration.wopi.rootContainer
                response.rootContainerInfo = RootContainerInfo(
                    containerPointer: .init(url: rootContainerURL.filled(with: tokens[1].value), name: root.name),
                    containerInfo: .init(name: root.name))
            }
            // Any other operation (or none) is a plain bootstrap, as the docs say.
            return .bootstrap(response)
        } catch {
            logger.error("bootstrap store failure", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            return .storeUnavailable
        }
    }

    /// A WOPI access token's value (for Office) and its draft (for the store: the digest only).
    private func newWopiToken(for wopiSource: String?, at time: Date) -> (value: String, draft: WopiTokenDraft) {
        let secret = SecretToken()
        let issuedAt = Date(timeIntervalSince1970: (time.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
        let expiresAt = issuedAt.addingTimeInterval(TimeInterval(configuration.wopi.accessTokenLifetimeSeconds))
        return (secret.value, WopiTokenDraft(digest: secret.digest, wopiSource: wopiSource, issuedAt: issuedAt, expiresAt: expiresAt))
    }
}
