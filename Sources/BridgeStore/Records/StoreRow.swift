import Foundation

/// A row as both stores read it: the column readers in the store's units (times are integer milliseconds, digests
/// lower-case hex text). The records and the statuses every store answers are read from a row once, below, so that
/// SQLite and PostgreSQL cannot drift apart on what a row means (which column wins, which check comes first).
public protocol StoreRow {
    func text(_ column: String) throws -> String
    func optionalText(_ column: String) throws -> String?
    func optionalInt64(_ column: String) throws -> Int64?
    func date(_ column: String) throws -> Date
    func optionalDate(_ column: String) throws -> Date?
}

/// A column whose value this store did not write: missing, of another type, or text that is not a digest.
public struct StoreColumnError: Error, Sendable, Hashable, CustomStringConvertible {
    public let column: String

    public init(column: String) { self.column = column }

    public var description: String { "column \(column) is missing or holds a value this store does not write" }
}

// The readers are inlinable so that each store's call specializes them for its own row type (no existential box
// on the token checks' path).
extension StoreRow {
    @inlinable
    public func digest(_ column: String) throws -> TokenDigest {
        guard let digest = TokenDigest(hex: try text(column)) else { throw StoreColumnError(column: column) }
        return digest
    }

    @inlinable
    public func optionalDigest(_ column: String) throws -> TokenDigest? {
        guard let hex = try optionalText(column) else { return nil }
        guard let digest = TokenDigest(hex: hex) else { throw StoreColumnError(column: column) }
        return digest
    }

    /// A `grants` row; through a join its columns carry a prefix (`g_`).
    @inlinable
    public func grant(prefix: String) throws -> GrantRecord {
        GrantRecord(
            id: GrantID(try text(prefix + "id")), userID: try text(prefix + "user_id"),
            clientID: try text(prefix + "client_id"), scope: try text(prefix + "scope"),
            sessionContext: try optionalText(prefix + "session_context"),
            createdAt: try date(prefix + "created_at"), revokedAt: try optionalDate(prefix + "revoked_at"))
    }

    /// An `authorization_codes` row (the code's digest is what the caller looked it up by).
    @inlinable
    public func authorizationCode(digest: TokenDigest) throws -> AuthorizationCodeRecord {
        AuthorizationCodeRecord(
            digest: digest, grantID: GrantID(try text("grant_id")), clientID: try text("client_id"),
            redirectURI: try text("redirect_uri"), codeChallenge: try optionalText("code_challenge"),
            codeChallengeMethod: try optionalText("code_challenge_method"), scope: try text("scope"),
            issuedAt: try date("issued_at"), expiresAt: try date("expires_at"),
            nonce: try optionalText("nonce"), authTime: try optionalDate("auth_time"),
            dpopKeyThumbprint: try optionalText("dpop_jkt"))
    }

    /// A `refresh_tokens` row of the grant `grantID`.
    @inlinable
    public func refreshToken(digest: TokenDigest, grantID: GrantID) throws -> RefreshTokenRecord {
        RefreshTokenRecord(
            digest: digest, grantID: grantID, clientID: try text("client_id"), scope: try text("scope"),
            issuedAt: try date("issued_at"), expiresAt: try optionalDate("expires_at"))
    }

    /// An `auth_sessions` row (first-party apps' `auth_session`).
    @inlinable
    public func authSession() throws -> AuthSessionRecord {
        AuthSessionRecord(
            digest: try digest("digest"), clientID: try text("client_id"),
            interaction: try digest("interaction_digest"), browser: try digest("browser_digest"),
            session: try optionalDigest("session_digest"), appToAppReference: try optionalDigest("app_to_app_reference"),
            signInName: try optionalText("sign_in_name"),
            dpopKeyThumbprint: try optionalText("dpop_jkt"), createdAt: try date("created_at"),
            expiresAt: try date("expires_at"))
    }

    /// What an access token's row says at `now`: its columns with its grant's (`g_`) and `token_revoked_at`.
    @inlinable
    public func accessTokenStatus(tokenID: String, at now: Date) throws -> AccessTokenStatus {
        let grant = try grant(prefix: "g_")
        if try grant.revokedAt != nil || optionalInt64("token_revoked_at") != nil { return .revoked }
        let expiresAt = try date("expires_at")
        if expiresAt <= now { return .expired }
        return .active(
            AccessTokenRecord(tokenID: tokenID, grantID: grant.id, issuedAt: try date("issued_at"), expiresAt: expiresAt),
            grant)
    }

    /// What a refresh token's row says at `now`: its columns with its grant's (`g_`) and `rotated_at`.
    @inlinable
    public func refreshTokenStatus(digest: TokenDigest, at now: Date) throws -> RefreshTokenStatus {
        let grant = try grant(prefix: "g_")
        let record = try refreshToken(digest: digest, grantID: grant.id)
        // Same order as `refresh`: a replay is a replay even after revocation or expiry.
        if try optionalInt64("rotated_at") != nil { return .rotated(record) }
        if grant.revokedAt != nil { return .revoked(record) }
        if let expiresAt = record.expiresAt, expiresAt <= now { return .expired(record) }
        return .active(record, grant)
    }
}
