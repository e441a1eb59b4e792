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
        guard let token = BearerCredential(authorization: request.authorization, maxBytes: maxBytes)?.token else {
            return .challenge
        }
        let time = now()
        let claims: AccessTokenClaims
        do {
            claims = try await verifier.verifiedClaims(token, at: time)
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
                let status = try await store.accessTokenStatus(tokenID: claims.jti.value, at: time)
                guard case .active(_, let grant) = status, grant.subject == claims.sub.value else { return .challenge }
                return .unknownWopiSource
            }
            let plan = plan(for: request, operation: operation, tokenID: claims.jti.value, at: time)
            let status = try await store.bootstrap(plan.step, at: time)
            return answer(status, plan: plan, operation: operation, claims: claims, logger: logger)
        } catch {
            logger.error("bootstrap store failure", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            return .storeUnavailable
        }
    }

    // Building the step and the answer happens in functions of their own, outside `respond`: an async function's
    // frame holds every temporary of its body, and a connection keeps its deepest frames while it is open. With
    // them inlined, this frame was 4,432 bytes (the async function pointer's context size).

    /// The WOPI access tokens the answer will carry, and the store step that records them.
    struct Plan {
        var ecosystemToken: String
        var operationToken: String?
        var step: BootstrapStep
    }

    @inline(never)
    func plan(for request: BootstrapRequest, operation: EcosystemOperation?, tokenID: String, at time: Date) -> Plan {
        let ecosystemToken = newWopiToken(for: nil, at: time)
        var drafts = [ecosystemToken.draft]
        var operationToken: String?
        if operation == .getNewAccessToken || operation == .getRootContainer {
            let token = newWopiToken(for: operation == .getNewAccessToken ? request.wopiSrc : nil, at: time)
            drafts.append(token.draft)
            operationToken = token.value
        }
        return Plan(
            ecosystemToken: ecosystemToken.value, operationToken: operationToken,
            step: BootstrapStep(accessTokenID: tokenID, wopiTokens: drafts, sessionContext: request.sessionContext))
    }

    @inline(never)
    func answer(
        _ status: BootstrapStatus, plan: Plan, operation: EcosystemOperation?, claims: AccessTokenClaims, logger: Logger
    ) -> BootstrapOutcome {
        guard case .active(let grant, let user) = status, grant.subject == claims.sub.value, grant.clientID == claims.client_id
        else {
            logger.debug("bootstrap token refused by the store")
            return .challenge
        }
        var response = BootstrapResponse(
            bootstrap: Bootstrap(
                ecosystemURL: ecosystemURL.filled(with: plan.ecosystemToken),
                userId: user.id, signInName: user.signInName, userFriendlyName: user.friendlyName))
        if operation == .getNewAccessToken, let token = plan.operationToken, let draft = plan.step.wopiTokens.last {
            response.accessTokenInfo = AccessTokenInfo(accessToken: token, expiresAt: draft.expiresAt)
        } else if operation == .getRootContainer, let token = plan.operationToken {
            let root = configuration.wopi.rootContainer
            response.rootContainerInfo = RootContainerInfo(
                containerPointer: .init(url: rootContainerURL.filled(with: token), name: root.name),
                containerInfo: .init(name: root.name))
        }
        // Any other operation (or none) is a plain bootstrap, as the docs say.
        return .bootstrap(response)
    }

    /// A WOPI access token's value (for Office) and its draft (for the store: the digest only).
    private func newWopiToken(for wopiSource: String?, at time: Date) -> (value: String, draft: WopiTokenDraft) {
        let secret = SecretToken()
        let issuedAt = Date(timeIntervalSince1970: (time.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
        let expiresAt = issuedAt.addingTimeInterval(TimeInterval(configuration.wopi.accessTokenLifetimeSeconds))
        return (secret.value, WopiTokenDraft(digest: secret.digest, wopiSource: wopiSource, issuedAt: issuedAt, expiresAt: expiresAt))
    }
}
