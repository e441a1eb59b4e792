import BridgeStore
import Foundation
import SignInProtocol

/// `POST /oauth/exchange` (SPiD one-time exchange codes, Schibsted SPiD login docs): an app with the user's access
/// token asks for a code that a sibling client of the same merchant redeems for the same user.
/// - `type=code`: an authorization code of the target client, with no redirect URI and no PKCE challenge, redeemed
///   once at the token endpoint (`grant_type=authorization_code`) by the target client with its own credentials;
///   so the target must be a confidential client registered for `authorization_code`.
/// - `type=session`: opened once by a browser at `/auth/session/{code}`, which gets a session cookie and a redirect
///   to the target's `redirect_uri` (a registered one; the first registered one when the request names none).
/// Codes are random 256-bit values stored as digests, single use, and live `exchange.codeLifetimeSeconds` or
/// `exchange.sessionLifetimeSeconds`.
struct ExchangeEndpoint: Sendable {
    static let path = "/oauth/exchange"

    let bearer: BearerTokenCheck
    let store: any CodeStore & ExchangeStore
    let merchants: MerchantClients
    let lifetimes: BridgeConfiguration.Exchange
    let limit: InputLimit
    let now: @Sendable () -> Date

    /// RFC 6750 §3's order: the user's token is judged first (none: the bare challenge; a bad one: `invalid_token`),
    /// then what the request asks for, refused with 400s only, since the caller's credential was good. `body` is
    /// the form's text, or why the route could not read one (another media type, too large): then the token can
    /// only be the Authorization header's, and it is still judged before the body is refused (RFC 6750 §3.1).
    func respond(to request: OAuthFormRequest, body: Result<String, OAuthError>) async throws(BearerRefusal)
        -> ExchangeResponse
    {
        let time = now()
        let text: String
        switch body {
        case .success(let value): text = value
        case .failure(let unreadable):
            _ = try await bearer.verified(authorization: request.authorization, dpop: request.dpop, at: time)
            throw .request(unreadable)
        }
        let form: FormParameters
        do {
            form = try FormParameters.decodeForOAuth(text, limit: limit, what: "exchange request")
        } catch {
            // A form that does not decode has no oauth_token to read: the header's token is judged first all the same.
            _ = try await bearer.verified(authorization: request.authorization, dpop: request.dpop, at: time)
            throw .request(error.oauthError)
        }
        let user = try await bearer.verified(
            authorization: request.authorization, formToken: form["oauth_token"], dpop: request.dpop, at: time)
        guard !user.grant.userID.isEmpty else {
            throw .invalidToken("the access token has no user (client_credentials)")
        }
        let exchange: ExchangeRequest
        do {
            exchange = try ExchangeRequest.decode(form, authorization: request.authorization, limit: limit)
        } catch {
            throw .request(error.oauthError)
        }
        guard let target = merchants.sibling(exchange.targetClientID, of: user.grant.clientID) else {
            throw .request(.invalidRequest("clientId is not a client of the caller's merchant"))
        }
        let scope = MerchantClients.narrowed(user.claims.scope ?? user.grant.scope, for: target)
        do throws(OAuthError) {
            switch exchange.type {
            case .code:
                return try await codeForBackend(of: target, user: user.grant.userID, scope: scope, at: time)
            case .session:
                let redirectURI = try Self.sessionRedirect(exchange.additionalParameters["redirect_uri"], of: target)
                return try await codeForBrowser(of: target, user: user.grant.userID, redirectURI: redirectURI, at: time)
            }
        } catch {
            throw error.code == .temporarilyUnavailable ? .storeUnavailable : .request(error)
        }
    }

    private func codeForBackend(
        of target: BridgeConfiguration.Client, user: String, scope: String, at now: Date
    ) async throws(OAuthError) -> ExchangeResponse {
        guard !target.public, target.grants.contains(.authorizationCode) else {
            throw OAuthError(
                .unauthorizedClient,
                description: "type=code needs a confidential target client registered for authorization_code")
        }
        let secret = SecretToken()
        let lifetime = lifetimes.codeLifetimeSeconds
        let grant = GrantRecord(userID: user, clientID: target.id, scope: scope, createdAt: now)
        // No redirect URI: the code never travels through a redirect, so the token endpoint asks for none
        // (`CheckRedirectURIMatches` skips an empty one) and ignores one that is sent.
        let code = AuthorizationCodeRecord(
            digest: secret.digest, grantID: grant.id, clientID: target.id, redirectURI: "", scope: scope,
            issuedAt: now, expiresAt: now.addingTimeInterval(TimeInterval(lifetime)), authTime: nil)
        try await storeCall { try await store.issueExchangeCode(code, in: grant) }
        return ExchangeResponse(code: secret.value, type: .code, expiresIn: lifetime)
    }

    private func codeForBrowser(
        of target: BridgeConfiguration.Client, user: String, redirectURI: String, at now: Date
    ) async throws(OAuthError) -> ExchangeResponse {
        let secret = SecretToken()
        let lifetime = lifetimes.sessionLifetimeSeconds
        let record = SessionExchangeCodeRecord(
            digest: secret.digest, userID: user, clientID: target.id, redirectURI: redirectURI, issuedAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(lifetime)))
        try await storeCall { try await store.issueSessionCode(record) }
        return ExchangeResponse(code: secret.value, type: .session, expiresIn: lifetime)
    }

    /// `redirect_uri` when it is one of the target's registered ones (exact match, RFC 9700 §2.1); else the first.
    static func sessionRedirect(_ requested: String?, of target: BridgeConfiguration.Client) throws(OAuthError) -> String {
        guard let requested, !requested.isEmpty else { return target.redirectUris[0] }
        guard target.redirectUris.contains(requested) else {
            throw OAuthError(.invalidRequest, description: "redirect_uri is not registered for the target client")
        }
        return requested
    }
}
