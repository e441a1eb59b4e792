import BridgeStore
import Foundation
import Logging
import SignInProtocol

/// The end of an authorization request. The code itself is created by the store step that finds the request can
/// finish (hashed, single use, bound to client, redirect URI, PKCE challenge and scope, RFC 6749 §4.1.2 and RFC 7636
/// §4.4); this type drafts it, and redirects with `code`, `state`, and Office's `tk` and `sc` when the client is
/// configured for them, or with an error.
struct CodeIssuance: Sendable {
    let configuration: BridgeConfiguration
    /// Takes the parked request a denial ends.
    let store: any AuthorizationStore
    let now: @Sendable () -> Date

    /// A new code's secret and what the store needs to create it, should the next step finish the request.
    func newCode(at now: Date) -> (SecretToken, CodeIssue) {
        let code = SecretToken()
        let lifetime = TimeInterval(configuration.authorize.codeLifetimeSeconds)
        return (code, CodeIssue(codeDigest: code.digest, codeExpiresAt: now.addingTimeInterval(lifetime)))
    }

    /// Where the browser goes with the issued `code`.
    func redirect(
        code: SecretToken, grant: GrantRecord, pending: PendingAuthorization, client: BridgeConfiguration.Client,
        logger: Logger
    ) -> String {
        logger.info(
            "authorization code issued",
            metadata: ["client": .string(client.id), "user": .string(grant.userID), "grant": .string(grant.id.rawValue)])
        // The app-to-app flow's final redirect carries the granted scope too, as the Vipps pages show it.
        let response = AuthorizationResponse.success(
            code: code.value, state: pending.request.state,
            scope: pending.appCallbackURI == nil ? nil : pending.scope, tokenEndpoint: client.tokenEndpointOverride,
            sessionContext: grant.sessionContext)
        return response.issued(by: configuration.issuer).redirectURL(to: pending.redirectURI)
    }

    /// The user said no: `access_denied` to the client (RFC 6749 §4.1.2.1), with its state. Takes the parked request.
    func deny(_ loaded: InteractionEndpoints.Loaded, logger: Logger) async throws -> BrowserAnswer {
        logger.info("authorization denied by the user")
        let (digest, now) = (loaded.record.digest, now())
        guard let record = try await callStore({ try await store.takePendingAuthorization(digest, at: now) }),
            let pending = try? PendingAuthorization.decode(record.payload)
        else {
            return .errorPage(loaded.pending.language, status: .badRequest, message: .expired)
        }
        return .redirect(refuse(pending, .accessDenied("the user did not allow access"), logger: logger))
    }

    /// Where the browser goes to end `pending` with `error` at the client's redirect URI, with its state.
    func refuse(_ pending: PendingAuthorization, _ error: OAuthError, logger: Logger) -> String {
        logger.info(
            "authorization refused", metadata: ["client": .string(pending.clientID), "error": .string(error.code.rawValue)])
        let response = AuthorizationResponse.failure(error, state: pending.request.state)
        return response.issued(by: configuration.issuer).redirectURL(to: pending.redirectURI)
    }

    /// An opaque value Office echoes in `X-WOPI-SessionContext`; recorded with the grant so the token endpoint and
    /// the bootstrapper can tell which sign-in a call belongs to.
    static func newSessionContext() -> String { SecretToken().value }
}
