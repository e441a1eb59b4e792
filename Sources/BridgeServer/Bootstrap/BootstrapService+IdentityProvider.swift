import BridgeStore
import Foundation
import Logging
import SignInProtocol

extension BootstrapService {
    /// The bootstrap for a token of the host's provider (`identityProvider`): verified by `ExternalTokenVerifier`,
    /// answered for the person its claims name. Nothing is read from or written to the store: the user has no grant
    /// here, and Office's `X-WOPI-SessionContext` echoes a value the provider's redirect carried, not ours.
    func respondExternally(
        to request: BootstrapRequest, token: String, verifier: ExternalTokenVerifier, at time: Date, logger: Logger
    ) async -> BootstrapOutcome {
        let identity: ExternalIdentity
        do {
            identity = try await verifier.identity(for: token, at: time)
        } catch .unavailable(let why) {
            logger.warning("identity provider unavailable", metadata: ["reason": "\(why)"])
            return .providerUnavailable
        } catch {
            logger.debug("bootstrap token refused", metadata: ["reason": "\(error)"])
            return .invalidToken
        }
        if let sessionContext = request.sessionContext, sessionContext.utf8.count > Self.maxSessionContextBytes {
            return .badRequest("X-WOPI-SessionContext is over \(Self.maxSessionContextBytes) bytes")
        }
        if asksForAForeignFile(request) { return .unknownWopiSource }
        return .bootstrap(answer(for: identity, request: request, at: time))
    }

    /// `rememberedBootstrap` for a token of the host's provider: a verdict kept by `ExternalIdentityCache`.
    func rememberedExternally(_ request: BootstrapRequest, verifier: ExternalTokenVerifier, at time: Date) -> BootstrapResponse? {
        let maxBytes = configuration.limits.maxHeaderValueBytes
        guard let token = BearerCredential(authorization: request.authorization, maxBytes: maxBytes)?.token,
            let identity = verifier.remembered(token, at: time),
            (request.sessionContext?.utf8.count ?? 0) <= Self.maxSessionContextBytes, !asksForAForeignFile(request)
        else { return nil }
        return answer(for: identity, request: request, at: time)
    }

    /// The answer with WOPI access tokens sealed for the external user (`ExternalGrant`), ending no later than the
    /// provider's token.
    func answer(for identity: ExternalIdentity, request: BootstrapRequest, at time: Date) -> BootstrapResponse {
        let external = ExternalGrant(identity: identity)
        return answer(
            grant: external.grant(at: time), user: external.user, request: request, at: time, notAfter: identity.usableUntil)
    }
}
