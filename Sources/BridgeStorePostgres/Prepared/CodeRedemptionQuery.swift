import BridgeStore
import Foundation
import PostgresNIO

/// `redeemAuthorizationCode`'s one statement: `code` is the row as the statement's snapshot saw it, `consumed`
/// whether the conditional UPDATE took it; the token response, a changed session context and a device session are
/// written from the consumed row, and a replay revokes the grant. Every token request with a code sends it.
struct CodeRedemptionQuery: PreparedQuery {
    var digest: TokenDigest
    var now: Int64
    var issuing: TokenResponseDraft?
    var sessionContext: String?
    /// Written only when `DeviceSessionDraft.isWritten(for:)` the consumed code (the `device` CTE says it in SQL).
    var deviceSession: DeviceSessionDraft? = nil

    typealias P = Parameter
    enum Parameter: Int, QueryParameter {
        case digest = 1, now, accessTokenID, issuedAt, accessExpiresAt, refreshDigest, refreshExpiresAt
        case sessionContext
        case deviceDigest, deviceSID, deviceClientID, deviceGroup, deviceScope, deviceCreatedAt, deviceExpiresAt
    }

    func bind(_ parameter: Parameter, to bindings: inout PostgresBindings) throws {
        switch parameter {
        case .digest: bindings.append(digest.hex)
        case .now: bindings.append(now)
        case .accessTokenID: bindings.append(issuing?.accessTokenID)
        case .issuedAt: bindings.append(issuing.map { Milliseconds.from($0.issuedAt) })
        case .accessExpiresAt: bindings.append(issuing.map { Milliseconds.from($0.accessExpiresAt) })
        case .refreshDigest: bindings.append(issuing?.refreshDigest?.hex)
        case .refreshExpiresAt: bindings.append(issuing.flatMap { Milliseconds.from($0.refreshExpiresAt) })
        case .sessionContext: bindings.append(sessionContext)
        case .deviceDigest: bindings.append(deviceSession?.digest.hex)
        case .deviceSID: bindings.append(deviceSession?.sid)
        case .deviceClientID: bindings.append(deviceSession?.clientID)
        case .deviceGroup: bindings.append(deviceSession?.group)
        case .deviceScope: bindings.append(deviceSession?.requiredScope.joined(separator: " "))
        case .deviceCreatedAt: bindings.append(deviceSession.map { Milliseconds.from($0.createdAt) })
        case .deviceExpiresAt: bindings.append(deviceSession.map { Milliseconds.from($0.expiresAt) })
        }
    }

    /// The code's columns as `redeemAuthorizationCode` reads them.
    static let codeColumns = [
        "grant_id", "client_id", "redirect_uri", "code_challenge", "code_challenge_method", "scope", "issued_at",
        "expires_at", "redeemed_at", "nonce", "auth_time", "dpop_jkt",
    ].map { "c.\($0)" }.joined(separator: ", ")

    static let sql = """
        WITH code AS (
            SELECT \(codeColumns), \(grantColumns(of: "g"))
            FROM authorization_codes c JOIN grants g ON g.id = c.grant_id WHERE c.digest = \(P.digest)
        ),
        consumed AS (
            UPDATE authorization_codes c SET redeemed_at = \(P.now) FROM grants g
            WHERE c.digest = \(P.digest) AND c.redeemed_at IS NULL AND c.expires_at > \(P.now)
                AND g.id = c.grant_id AND g.revoked_at IS NULL
            RETURNING c.grant_id, c.client_id, c.scope, c.auth_time, g.user_id
        ),
        access AS (
            INSERT INTO access_tokens (token_id, grant_id, issued_at, expires_at)
            SELECT \(P.accessTokenID)::text, grant_id, \(P.issuedAt)::bigint, \(P.accessExpiresAt)::bigint
            FROM consumed WHERE \(P.accessTokenID)::text IS NOT NULL
            RETURNING token_id
        ),
        refresh AS (
            INSERT INTO refresh_tokens (digest, grant_id, client_id, scope, issued_at, expires_at)
            SELECT \(P.refreshDigest)::text, grant_id, client_id, scope, \(P.issuedAt)::bigint,
                \(P.refreshExpiresAt)::bigint
            FROM consumed WHERE \(P.refreshDigest)::text IS NOT NULL
            RETURNING digest
        ),
        device AS (
            INSERT INTO device_sessions (digest, sid, user_id, client_id, sso_group, scope, auth_time, created_at,
                expires_at)
            SELECT \(P.deviceDigest)::text, \(P.deviceSID)::text, user_id, client_id, \(P.deviceGroup)::text, scope,
                auth_time, \(P.deviceCreatedAt)::bigint, \(P.deviceExpiresAt)::bigint
            FROM consumed WHERE \(P.deviceDigest)::text IS NOT NULL AND client_id = \(P.deviceClientID)::text
                AND string_to_array(scope, ' ') @> string_to_array(\(P.deviceScope)::text, ' ')
            RETURNING digest
        ),
        context AS (
            UPDATE grants SET session_context = \(P.sessionContext)::text
            WHERE id = (SELECT grant_id FROM consumed) AND \(P.sessionContext)::text IS NOT NULL
                AND session_context IS DISTINCT FROM \(P.sessionContext)::text
            RETURNING id
        ),
        replayed AS (
            UPDATE grants SET revoked_at = \(P.now)
            WHERE id = (SELECT grant_id FROM code) AND revoked_at IS NULL
                AND NOT EXISTS (SELECT 1 FROM consumed)
                AND (SELECT redeemed_at IS NOT NULL OR (g_revoked_at IS NULL AND expires_at > \(P.now)) FROM code)
            RETURNING id
        ),
        notified AS (
            SELECT \(notifyChange) FROM (SELECT id FROM replayed UNION ALL SELECT id FROM context) AS c
        )
        SELECT code.*, (SELECT count(*) FROM consumed) AS consumed, (SELECT count(*) FROM context) AS context,
            (SELECT count(*) FROM access) + (SELECT count(*) FROM refresh) + (SELECT count(*) FROM device) AS recorded,
            (SELECT count(*) FROM notified) AS notified
        FROM code
        """
}
