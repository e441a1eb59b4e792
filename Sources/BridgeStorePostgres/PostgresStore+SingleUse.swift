import BridgeStore
import Foundation
import PostgresNIO

/// Codes: checked and consumed in one statement each (refresh tokens likewise, in `refresh`).
///
/// Why `UPDATE … WHERE redeemed_at IS NULL RETURNING` and not `SELECT … FOR UPDATE SKIP LOCKED`: SKIP LOCKED makes a
/// second redemption that arrives while the first is in flight see no row at all, so it could not tell "someone is
/// redeeming this code right now" (a replay, which must revoke the grant, RFC 9700 §4.2.4) from "no such code". The
/// conditional UPDATE waits for the first transaction instead, re-checks the row as committed (READ COMMITTED,
/// postgresql.org/docs/15/transaction-iso.html §13.2.1) and finds it consumed: exactly one caller wins, and every
/// loser knows that it lost a race for an existing code.
extension PostgresStore {
    public func issueAuthorizationCode(_ code: AuthorizationCodeRecord) async throws {
        try await rows(Subject("authorization code"), Self.insertCode(code))
    }

    static func insertCode(_ code: AuthorizationCodeRecord) -> PostgresQuery {
        """
        INSERT INTO authorization_codes (digest, grant_id, client_id, redirect_uri, code_challenge,
            code_challenge_method, scope, issued_at, expires_at, nonce, auth_time, dpop_jkt)
        VALUES (\(code.digest.hex), \(code.grantID.rawValue), \(code.clientID), \(code.redirectURI),
            \(code.codeChallenge), \(code.codeChallengeMethod), \(code.scope), \(Milliseconds.from(code.issuedAt)),
            \(Milliseconds.from(code.expiresAt)), \(code.nonce), \(Milliseconds.from(code.authTime)),
            \(code.dpopKeyThumbprint))
        """
    }

    /// One statement, so one round trip and one implicit transaction: a data-modifying CTE inserts the grant, and
    /// the outer INSERT its code; the code's foreign key is checked at the end of the statement, when the grant row
    /// exists (PostgreSQL docs, "Data-Modifying Statements in WITH").
    public func issueExchangeCode(_ code: AuthorizationCodeRecord, in grant: GrantRecord) async throws {
        try await rows(
            Subject("exchange code"),
            """
            WITH new_grant AS (
                INSERT INTO grants (id, user_id, client_id, scope, session_context, created_at, revoked_at)
                VALUES (\(grant.id.rawValue), \(grant.userID), \(grant.clientID), \(grant.scope), \(grant.sessionContext),
                    \(Milliseconds.from(grant.createdAt)), \(Milliseconds.from(grant.revokedAt)))
                RETURNING id)
            INSERT INTO authorization_codes (digest, grant_id, client_id, redirect_uri, code_challenge,
                code_challenge_method, scope, issued_at, expires_at, nonce, auth_time, dpop_jkt)
            SELECT \(code.digest.hex), new_grant.id, \(code.clientID), \(code.redirectURI),
                \(code.codeChallenge), \(code.codeChallengeMethod), \(code.scope), \(Milliseconds.from(code.issuedAt)),
                \(Milliseconds.from(code.expiresAt)), \(code.nonce), \(Milliseconds.from(code.authTime)),
                \(code.dpopKeyThumbprint)
            FROM new_grant
            """)
    }

    /// Concurrent redemptions of live codes share one statement (`redeemInBatch`); otherwise, and for every code the
    /// batch did not consume, one prepared statement (`CodeRedemptionQuery`). `code` is the row as this statement's
    /// snapshot saw it; `consumed` is whether the conditional UPDATE took it. A replay (the snapshot shows it
    /// redeemed, or the UPDATE lost the race to a concurrent redemption) revokes the grant in the same statement.
    ///
    /// The token response (`issuing`), the grant's new session context and a device session (`writes`) are written
    /// by the same statement, from the consumed row: nothing is recorded unless this call won the code, and a write
    /// that fails undoes the redemption.
    public func redeemAuthorizationCode(
        _ digest: TokenDigest, at now: Date, issuing: TokenResponseDraft?, sessionContext: String?,
        writes: CodeRedemptionWrites
    ) async throws -> CodeRedemption {
        let nowMS = Milliseconds.from(now)
        // A session context (the Office bootstrap flow) or a device session (Native SSO) to record is rare: those go
        // alone, the rest in batches.
        if sessionContext == nil, writes.deviceSession == nil,
            let redeemed = try await redeemInBatch(.init(digest: digest, now: nowMS, issuing: issuing))
        {
            return .redeemed(redeemed.code, redeemed.grant)
        }
        guard
            let row = try await rows(
                Subject(
                    "authorization code redemption",
                    tables: [
                        "access_tokens": "access token \(issuing?.accessTokenID ?? "")", "refresh_tokens": "refresh token",
                        "device_sessions": "device session",
                    ]),
                CodeRedemptionQuery(
                    digest: digest, now: nowMS, issuing: issuing, sessionContext: sessionContext,
                    deviceSession: writes.deviceSession)
            ).first
        else { return .unknown }
        var grant = try row.grant(prefix: "g_")
        if try row.int("consumed") == 1 {
            if try row.int("context") == 1, let sessionContext {
                grant.sessionContext = sessionContext
                noteChange()
            }
            return .redeemed(try row.authorizationCode(digest: digest), grant)
        }
        // The order of the SQLite store: a replay first (even after expiry), then revocation, then expiry.
        if try row.optionalInt64("redeemed_at") == nil {
            if grant.revokedAt != nil { return .revoked }
            if try row.optionalInt64("expires_at") ?? 0 <= nowMS { return .expired }
        }
        noteChange()
        return .replayed(grant.id)
    }
}
