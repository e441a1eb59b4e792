import Foundation

/// Authorization codes: single use, bound to client, redirect URI, PKCE challenge and scope.
public protocol CodeStore: Sendable {
    func issueAuthorizationCode(_ code: AuthorizationCodeRecord) async throws
    /// The exchange-code step (`POST /oauth/exchange`, `type=code`): creates `grant` (the user's grant to the
    /// target client) and `code` in it, in one call: both or neither. Errors as `createGrant` and
    /// `issueAuthorizationCode`.
    func issueExchangeCode(_ code: AuthorizationCodeRecord, in grant: GrantRecord) async throws
    /// The redemption step: consumes the code and, when it was redeemed, records `issuing` (the token response's
    /// access and refresh token, in the code's grant, with the code's client and scope), the latest
    /// `sessionContext` of the grant and `writes` (a device session, when `DeviceSessionDraft.isWritten(for:)` the
    /// consumed code), all in one transaction: a failure anywhere leaves the code unredeemed and nothing written. A
    /// second redemption revokes the code's grant in the same call (RFC 9700 §4.2.4).
    func redeemAuthorizationCode(
        _ digest: TokenDigest, at now: Date, issuing: TokenResponseDraft?, sessionContext: String?,
        writes: CodeRedemptionWrites
    ) async throws -> CodeRedemption
}

extension CodeStore {
    /// The redemption step with no write besides the token response.
    public func redeemAuthorizationCode(
        _ digest: TokenDigest, at now: Date, issuing: TokenResponseDraft?, sessionContext: String?
    ) async throws -> CodeRedemption {
        try await redeemAuthorizationCode(digest, at: now, issuing: issuing, sessionContext: sessionContext, writes: .none)
    }

    /// Consumes the code and records nothing else.
    public func redeemAuthorizationCode(_ digest: TokenDigest, at now: Date) async throws -> CodeRedemption {
        try await redeemAuthorizationCode(digest, at: now, issuing: nil, sessionContext: nil)
    }
}

/// Access tokens (signed JWTs, remembered by id so they can be revoked) and refresh tokens.
public protocol TokenStore: Sendable {
    // MARK: Access tokens

    func recordAccessToken(_ token: AccessTokenRecord) async throws
    func accessTokenStatus(tokenID: String, at now: Date) async throws -> AccessTokenStatus
    @discardableResult
    func revokeAccessToken(tokenID: String, at now: Date) async throws -> Bool

    // MARK: Refresh tokens (stored hashed, rotated on use)

    func issueRefreshToken(_ token: RefreshTokenRecord) async throws
    /// Records the tokens of one token response (an access token and, when the client may refresh, a refresh token)
    /// in one atomic call: both or neither. Errors as `recordAccessToken` and `issueRefreshToken`.
    func recordTokenResponse(access: AccessTokenRecord, refresh: RefreshTokenRecord?) async throws
    /// The refresh step of the token endpoint (RFC 6749 §6), in one call. The token must belong to
    /// `request.clientID` and cover `request.scope` (else nothing changes and the answer says why). Then it is
    /// retired and the replacement stored in its grant, with the new access token and the grant's latest session
    /// context, atomically, and the grant is returned. Presenting an already rotated token is a replay (even after
    /// revocation or expiry) and revokes the whole grant (RFC 9700 §4.14.2, replay detection), unless it was rotated
    /// at most `reuseGrace` before `now`: then it is rotated again into another replacement, nothing is revoked, and
    /// the first rotation time is kept, so the window never grows. That is for a client that refreshes from several threads at
    /// once (the reuse interval of Okta and Auth0); 0 means none, not even within the same millisecond.
    func refresh(_ request: RefreshRequest, at now: Date, reuseGrace: TimeInterval) async throws -> RefreshOutcome
    /// The bootstrap step: the access token's status with its grant and user, in one call; when it is active (and
    /// its user exists), a changed session context (once per sign-in) is recorded too. Every instance sharing the
    /// database sees a revocation at the next bootstrap.
    func bootstrap(_ step: BootstrapStep, at now: Date) async throws -> BootstrapStatus
    /// RFC 7009 §2.1 for a refresh token, in one call: its grant is revoked (and with it every token issued under it)
    /// when the token belongs to `clientID`. Answers the token's status as it was; an unknown token or another
    /// client's changes nothing.
    func revokeRefreshToken(_ digest: TokenDigest, clientID: String, at now: Date) async throws -> RefreshTokenStatus
    /// What the store knows about a refresh token at `now`, without changing anything (introspection, revocation).
    /// Never revokes: only presenting a token rotates it.
    func refreshTokenStatus(_ digest: TokenDigest, at now: Date) async throws -> RefreshTokenStatus
}
