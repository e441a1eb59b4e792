import BridgeStore
import Foundation
import SignInProtocol

/// Makes the tokens of a successful token request: a signed access token (the issuer records it in the store, so it
/// can be revoked) and, when the client may refresh, an opaque 256-bit refresh token stored as a digest only.
struct TokenMinter: Sendable {
    let accessTokens: AccessTokenIssuer
    /// Nil: refresh tokens live until rotated or revoked.
    let refreshTokenLifetime: TimeInterval?

    /// The answer of a grant that starts with its token response (client credentials, token exchange): the grant
    /// and its access token in one store step; no refresh token.
    func respond(creating grant: GrantRecord, at now: Date, boundTo keyThumbprint: String?) async throws(OAuthError)
        -> TokenResponse
    {
        let draft = accessTokens.draft(at: now, boundTo: keyThumbprint)
        let access = try serverErrorOnFailure { try accessTokens.sign(draft, in: grant) }
        try await storeCall { try await accessTokens.store.createGrant(grant, withAccessToken: draft.record(in: grant.id)) }
        return Self.response(access, issuedAt: now, refreshToken: nil, scope: grant.scope)
    }

    /// The tokens of a response drafted before the store step that records them: the access token's id and times,
    /// and a new refresh token when `withRefresh`. The access token is signed after the step (`signed`). `binding`
    /// says which DPoP key each token is bound to.
    func draft(withRefresh: Bool, binding: DPoPBinding = .none, at now: Date) -> (TokenResponseDraft, AccessTokenDraft, SecretToken?) {
        let access = accessTokens.draft(at: now, boundTo: binding.accessToken)
        let refresh = withRefresh ? binding.refreshToken.map { SecretToken().bound(to: $0.encoded) } ?? SecretToken() : nil
        let draft = TokenResponseDraft(
            issuedAt: access.issuedAt, accessTokenID: access.tokenID, accessExpiresAt: access.expiresAt,
            refreshDigest: refresh?.digest, refreshExpiresAt: refresh == nil ? nil : refreshTokenLifetime.map(now.addingTimeInterval))
        return (draft, access, refresh)
    }

    /// Signs the drafted access token for `scope` in `grant`.
    func signed(_ access: AccessTokenDraft, in grant: GrantRecord, scope: String) throws -> IssuedAccessToken {
        var narrowed = grant
        narrowed.scope = scope
        return try accessTokens.sign(access, in: narrowed)
    }

    /// The RFC 6749 §5.1 body; `expires_in` a number of seconds.
    static func response(_ access: IssuedAccessToken, issuedAt now: Date, refreshToken: SecretToken?, scope: String) -> TokenResponse {
        let expiresIn = max(0, Int(access.expiresAt.timeIntervalSince(now).rounded()))
        return TokenResponse(
            accessToken: access.token, tokenType: access.tokenType, expiresIn: expiresIn, refreshToken: refreshToken?.value,
            scope: scope.isEmpty ? nil : scope)
    }
}

/// Runs a store call inside the token pipeline: an outage becomes `temporarily_unavailable` (503), any other store
/// fault `server_error` (500); never a token (`callStore` holds the rule).
func storeCall<T>(_ body: () async throws -> T) async throws(OAuthError) -> T {
    try await callStore(failingAs: OAuthError.self, body)
}

/// Signing and encoding inside the token pipeline: a failure is the server's own, `server_error` (500), never an
/// outage of the store.
func serverErrorOnFailure<T>(_ body: () throws -> T) throws(OAuthError) -> T {
    do {
        return try body()
    } catch {
        StoreFaultLog.logger.error("signing failed", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        throw .serverFault
    }
}
