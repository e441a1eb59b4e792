import BridgeStore
import Foundation
import Hummingbird
import Logging
import SignInProtocol

/// The end of a successful authorization: consumes the pending request (at most one code per request), creates
/// the grant, stores the code (hashed, single use, bound to client, redirect URI, PKCE challenge and scope, RFC 6749
/// §4.1.2 and RFC 7636 §4.4) and redirects with `code`, `state`, and Office's `tk` and `sc` when the client is
/// configured for them (seed 004).
struct CodeIssuance: Sendable {
    let environment: AuthorizeEnvironment

    func finish(
        digest: TokenDigest, user: UserRecord, client: BridgeConfiguration.Client, method: HTTPRequest.Method,
        language: PageLanguage, context: BridgeRequestContext
    ) async throws -> Response {
        let now = environment.now()
        guard let record = try await environment.store.takePendingAuthorization(digest, at: now),
            let pending = try? PendingAuthorization.decode(record.payload)
        else {
            return environment.pages.error(language, status: .badRequest, message: \.expired)
        }
        let sessionContext = (client.sessionContext ?? false) ? Self.newSessionContext() : nil
        let grant = GrantRecord(
            userID: user.id, clientID: client.id, scope: pending.scope, sessionContext: sessionContext, createdAt: now)
        try await environment.store.createGrant(grant)
        let code = SecretToken()
        try await environment.store.issueAuthorizationCode(
            AuthorizationCodeRecord(
                digest: code.digest, grantID: grant.id, clientID: client.id, redirectURI: pending.redirectURI,
                codeChallenge: pending.codeChallenge, codeChallengeMethod: pending.codeChallengeMethod,
                scope: pending.scope, issuedAt: now,
                expiresAt: now.addingTimeInterval(TimeInterval(environment.configuration.authorize.codeLifetimeSeconds))))
        context.logger.info(
            "authorization code issued",
            metadata: ["client": .string(client.id), "user": .string(user.id), "grant": .string(grant.id.rawValue)])
        let response = AuthorizationResponse.success(
            code: code.value, state: pending.request.state, tokenEndpoint: client.tokenEndpointOverride,
            sessionContext: sessionContext)
        return AuthorizeEnvironment.redirect(to: response.redirectURL(to: pending.redirectURI), after: method)
    }

    /// The user said no: `access_denied` to the client (RFC 6749 §4.1.2.1), with its state.
    func deny(
        digest: TokenDigest, method: HTTPRequest.Method, language: PageLanguage, context: BridgeRequestContext
    ) async throws -> Response {
        context.logger.info("authorization denied by the user")
        return try await refuse(
            digest: digest, .accessDenied("the user did not allow access"), method: method, language: language,
            context: context)
    }

    /// Ends the request with `error` sent to the client's redirect URI, with its state.
    func refuse(
        digest: TokenDigest, _ error: OAuthError, method: HTTPRequest.Method, language: PageLanguage,
        context: BridgeRequestContext
    ) async throws -> Response {
        guard let record = try await environment.store.takePendingAuthorization(digest, at: environment.now()),
            let pending = try? PendingAuthorization.decode(record.payload)
        else {
            return environment.pages.error(language, status: .badRequest, message: \.expired)
        }
        context.logger.info(
            "authorization refused", metadata: ["client": .string(pending.clientID), "error": .string(error.code.rawValue)])
        let response = AuthorizationResponse.failure(error, state: pending.request.state)
        return AuthorizeEnvironment.redirect(to: response.redirectURL(to: pending.redirectURI), after: method)
    }

    /// An opaque value Office echoes in `X-WOPI-SessionContext`; recorded with the grant so the token endpoint and
    /// the bootstrapper can tell which sign-in a call belongs to.
    static func newSessionContext() -> String { SecretToken().value }
}
