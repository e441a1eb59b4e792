import BridgeStore
import Foundation

// MARK: Access tokens

extension SQLiteStore {
    public func recordAccessToken(_ token: AccessTokenRecord) async throws {
        try await write("access token \(token.tokenID)", Self.insertAccessTokenSQL, Self.binds(token))
    }

    public func recordTokenResponse(access: AccessTokenRecord, refresh: RefreshTokenRecord?) async throws {
        try await tokenResponses.submit(TokenResponseRecords(access: access, refresh: refresh), run: recordTokenResponses)
    }

    /// `recordTokenResponse` for one response in its own transaction (the batch's fallback).
    func recordOneTokenResponse(access: AccessTokenRecord, refresh: RefreshTokenRecord?) async throws {
        try await transaction("access token \(access.tokenID)") { tx in
            try Self.insertAccessToken(access, in: tx)
            guard let refresh else { return }
            // Named as `issueRefreshToken` names it; the transaction maps only the access token's faults.
            do {
                try Self.insertRefreshToken(refresh, in: tx)
            } catch let error as SQLiteError {
                throw Self.storeError(error, what: "refresh token")
            }
        }
    }

    static func insertAccessToken(_ token: AccessTokenRecord, in tx: Transaction) throws {
        try tx.query(insertAccessTokenSQL, binds(token))
    }

    /// `insertAccessToken` in a transaction named for something else (a grant): its faults name the token.
    static func insertAccessTokenNamingIt(_ token: AccessTokenRecord, in tx: Transaction) throws {
        do {
            try insertAccessToken(token, in: tx)
        } catch let error as SQLiteError {
            throw storeError(error, what: "access token \(token.tokenID)")
        }
    }

    static let insertAccessTokenSQL =
        "INSERT INTO access_tokens (token_id, grant_id, issued_at, expires_at) VALUES (?, ?, ?, ?)"

    static func binds(_ token: AccessTokenRecord) -> [SQLiteData] {
        [.text(token.tokenID), .text(token.grantID.rawValue), .millis(token.issuedAt), .millis(token.expiresAt)]
    }

    public func accessTokenStatus(tokenID: String, at now: Date) async throws -> AccessTokenStatus {
        guard
            let row = try await read(
                """
                SELECT t.issued_at, t.expires_at, t.revoked_at AS token_revoked_at, g.id AS g_id,
                       g.user_id AS g_user_id, g.client_id AS g_client_id, g.scope AS g_scope,
                       g.session_context AS g_session_context, g.created_at AS g_created_at,
                       g.revoked_at AS g_revoked_at
                FROM access_tokens t JOIN grants g ON g.id = t.grant_id WHERE t.token_id = ?
                """,
                [.text(tokenID)]
            ).first
        else { return .unknown }
        return try row.accessTokenStatus(tokenID: tokenID, at: now)
    }

    public func revokeAccessToken(tokenID: String, at now: Date) async throws -> Bool {
        defer { noteChange() }
        return try await transaction("access token revocation") { tx in
            try tx.query(
                "UPDATE access_tokens SET revoked_at = coalesce(revoked_at, ?) WHERE token_id = ?",
                [.millis(now), .text(tokenID)])
            return tx.changes() == 1
        }
    }
}

// MARK: Authorization codes

extension SQLiteStore {
    public func issueAuthorizationCode(_ code: AuthorizationCodeRecord) async throws {
        try await transaction("authorization code") { tx in try Self.insertCode(code, in: tx) }
    }

    public func issueExchangeCode(_ code: AuthorizationCodeRecord, in grant: GrantRecord) async throws {
        try await transaction("exchange code") { tx in
            try Self.insertGrant(grant, in: tx)
            try Self.insertCode(code, in: tx)
        }
    }

    static func insertCode(_ code: AuthorizationCodeRecord, in tx: Transaction) throws {
        try tx.query(
            """
            INSERT INTO authorization_codes (digest, grant_id, client_id, redirect_uri, code_challenge,
                code_challenge_method, scope, issued_at, expires_at, nonce, auth_time, dpop_jkt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(code.digest.hex), .text(code.grantID.rawValue), .text(code.clientID), .text(code.redirectURI),
                .optionalText(code.codeChallenge), .optionalText(code.codeChallengeMethod), .text(code.scope),
                .millis(code.issuedAt), .millis(code.expiresAt), .optionalText(code.nonce), .millis(code.authTime),
                .optionalText(code.dpopKeyThumbprint),
            ])
    }

    public func redeemAuthorizationCode(
        _ digest: TokenDigest, at now: Date, issuing: TokenResponseDraft?, sessionContext: String?,
        writes: CodeRedemptionWrites
    ) async throws -> CodeRedemption {
        // The usual case, grouped with concurrent redemptions into one transaction (`consumeCodes`); anything else
        // falls through to the transaction below, which tells the cases apart.
        let attempt = CodeConsumption(
            digest: digest, now: now, issuing: issuing, sessionContext: sessionContext, writes: writes)
        if let consumed = try await codeConsumptions.submit(attempt, run: consumeCodes) {
            return .redeemed(consumed.0, consumed.1)
        }
        return try await redeemOutsideTheBatch(attempt, digest: digest, at: now)
    }

    /// A code the batch did not consume: unknown, expired, revoked or replayed. A function of its own, so that the
    /// usual case's async frame does not hold this path's temporaries too (2,864 bytes with both).
    @inline(never)
    func redeemOutsideTheBatch(_ attempt: CodeConsumption, digest: TokenDigest, at now: Date) async throws -> CodeRedemption {
        // What follows may revoke a grant (a replay).
        defer { noteChange() }
        return try await transaction("authorization code redemption") { tx in
            guard
                let row = try tx.query(
                    """
                    SELECT c.*, g.revoked_at AS grant_revoked_at, g.id AS g_id, g.user_id AS g_user_id,
                        g.client_id AS g_client_id, g.scope AS g_scope, g.session_context AS g_session_context,
                        g.created_at AS g_created_at, g.revoked_at AS g_revoked_at
                    FROM authorization_codes c JOIN grants g ON g.id = c.grant_id WHERE c.digest = ?
                    """,
                    [.text(digest.hex)]
                ).first
            else { return .unknown }
            let grantID = GrantID(try row.text("grant_id"))
            // Replay first: a second redemption must revoke the grant even after the code expired.
            if try row.optionalInt64("redeemed_at") != nil {
                try Self.revokeGrant(grantID, at: now, in: tx)
                return .replayed(grantID)
            }
            if try row.optionalInt64("grant_revoked_at") != nil { return .revoked }
            let expiresAt = try row.date("expires_at")
            if expiresAt <= now { return .expired }
            // Only a code consumed between the batch and this transaction's start is left (it is a replay above);
            // this path redeems a code the batch missed, as a lone redemption would.
            let (consumed, _) = try Self.consumeCodes([attempt], in: tx)
            guard let (code, grant) = consumed[0] else { return .unknown }
            return .redeemed(code, grant)
        }
    }
}

// MARK: Refresh tokens

extension SQLiteStore {
    public func issueRefreshToken(_ token: RefreshTokenRecord) async throws {
        try await transaction("refresh token") { tx in try Self.insertRefreshToken(token, in: tx) }
    }

    static func insertRefreshToken(_ token: RefreshTokenRecord, in tx: Transaction) throws {
        try tx.query(
            """
            INSERT INTO refresh_tokens (digest, grant_id, client_id, scope, issued_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            binds(token))
    }

    static func binds(_ token: RefreshTokenRecord) -> [SQLiteData] {
        [
            .text(token.digest.hex), .text(token.grantID.rawValue), .text(token.clientID), .text(token.scope),
            .millis(token.issuedAt), .millis(token.expiresAt),
        ]
    }
}

// MARK: The refresh step

extension SQLiteStore {
    public func refresh(_ request: RefreshRequest, at now: Date, reuseGrace: TimeInterval) async throws -> RefreshOutcome {
        defer { noteChange() }
        return try await transaction("refresh token rotation") { tx in
            guard
                let row = try tx.query(
                    """
                    SELECT r.*, g.id AS g_id, g.user_id AS g_user_id, g.client_id AS g_client_id, g.scope AS g_scope,
                        g.session_context AS g_session_context, g.created_at AS g_created_at,
                        g.revoked_at AS g_revoked_at
                    FROM refresh_tokens r JOIN grants g ON g.id = r.grant_id WHERE r.digest = ?
                    """,
                    [.text(request.presented.hex)]
                ).first
            else { return .unknown }
            var grant = try row.grant(prefix: "g_")
            let previous = try row.refreshToken(digest: request.presented, grantID: grant.id)
            let accessScope: String
            switch request.scope(for: previous) {
            case .success(let scope): accessScope = scope
            case .failure(let refusal): return refusal.outcome
            }
            let rotatedAt = try row.optionalDate("rotated_at")
            if let rotatedAt, reuseGrace <= 0 || now < rotatedAt || now.timeIntervalSince(rotatedAt) > reuseGrace {
                try Self.revokeGrant(grant.id, at: now, in: tx)
                return .replayed(grant.id)
            }
            if grant.revokedAt != nil { return .revoked }
            if let expiresAt = previous.expiresAt, expiresAt <= now { return .expired }
            if rotatedAt == nil {
                try tx.query(
                    "UPDATE refresh_tokens SET rotated_at = ? WHERE digest = ?", [.millis(now), .text(request.presented.hex)])
            }
            let (access, refresh) = request.issuing.records(
                grant: grant.id, clientID: previous.clientID, accessScope: accessScope, refreshScope: previous.scope)
            let response = TokenResponseRecords(access: access, refresh: refresh)
            try tx.query(Self.insertTokenResponsesSQL(count: 1), Self.binds([response]))
            if let context = request.sessionContext, context != grant.sessionContext {
                try tx.query(
                    "UPDATE grants SET session_context = ? WHERE id = ?", [.text(context), .text(grant.id.rawValue)])
                grant.sessionContext = context
            }
            return .rotated(previous: previous, grant: grant, accessScope: accessScope)
        }
    }
}
