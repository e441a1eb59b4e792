import BridgeStore
import Foundation
import PostgresNIO

/// `redeemAuthorizationCode`'s fast path for concurrent token requests (`WriteBatcher`): every code that is live is
/// consumed and its access and refresh token written, in one statement over arrays, so N token requests cost one
/// round trip, one plan set-up and one commit. A code it does not consume (unknown, expired, used, its grant
/// revoked, or redeemed twice within one batch, where the UPDATE takes it once) is sent again alone as
/// `CodeRedemptionQuery`, which tells these apart and revokes the grant of a replayed code (RFC 6749 §4.1.2).
struct RedemptionBatchQuery: PreparedQuery {
    /// One request: `CodeRedemptionQuery`'s inputs without a session context to record.
    struct Item: Sendable {
        var digest: TokenDigest
        var now: Int64
        var issuing: TokenResponseDraft?
    }

    var items: [Item]

    typealias P = Parameter
    enum Parameter: Int, QueryParameter {
        case digest = 1, now, accessTokenID, issuedAt, accessExpiresAt, refreshDigest, refreshExpiresAt
    }

    func bind(_ parameter: Parameter, to bindings: inout PostgresBindings) throws {
        switch parameter {
        case .digest: bindings.append(items.map(\.digest.hex))
        case .now: bindings.append(items.map(\.now))
        case .accessTokenID: try bindings.append(NullableArray(items.map { $0.issuing?.accessTokenID }))
        case .issuedAt: try bindings.append(NullableArray(items.map { $0.issuing.map { Milliseconds.from($0.issuedAt) } }))
        case .accessExpiresAt:
            try bindings.append(NullableArray(items.map { $0.issuing.map { Milliseconds.from($0.accessExpiresAt) } }))
        case .refreshDigest: try bindings.append(NullableArray(items.map { $0.issuing?.refreshDigest?.hex }))
        case .refreshExpiresAt:
            try bindings.append(NullableArray(items.map { $0.issuing.flatMap { Milliseconds.from($0.refreshExpiresAt) } }))
        }
    }

    /// The rows answered, one per consumed code: `n` is its place in `items`, from 1, with `CodeRedemptionQuery`'s
    /// code and grant columns.
    static let sql = """
        WITH i AS (
            SELECT * FROM unnest(\(P.digest)::text[], \(P.now)::bigint[], \(P.accessTokenID)::text[],
                \(P.issuedAt)::bigint[], \(P.accessExpiresAt)::bigint[], \(P.refreshDigest)::text[],
                \(P.refreshExpiresAt)::bigint[])
            WITH ORDINALITY AS i (in_digest, in_now, in_access_token_id, in_issued_at, in_access_expires_at,
                in_refresh_digest, in_refresh_expires_at, n)
        ),
        consumed AS (
            UPDATE authorization_codes c SET redeemed_at = i.in_now FROM grants g, i
            WHERE c.digest = i.in_digest AND c.redeemed_at IS NULL AND c.expires_at > i.in_now
                AND g.id = c.grant_id AND g.revoked_at IS NULL
            RETURNING i.*, \(CodeRedemptionQuery.codeColumns), \(grantColumns(of: "g"))
        ),
        access AS (
            INSERT INTO access_tokens (token_id, grant_id, issued_at, expires_at)
            SELECT in_access_token_id, grant_id, in_issued_at, in_access_expires_at
            FROM consumed WHERE in_access_token_id IS NOT NULL
        ),
        refresh AS (
            INSERT INTO refresh_tokens (digest, grant_id, client_id, scope, issued_at, expires_at)
            SELECT in_refresh_digest, grant_id, client_id, scope, in_issued_at, in_refresh_expires_at
            FROM consumed WHERE in_refresh_digest IS NOT NULL
        )
        SELECT * FROM consumed
        """
}
