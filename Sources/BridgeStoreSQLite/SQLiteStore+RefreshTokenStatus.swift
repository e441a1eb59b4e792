import BridgeStore
import Foundation

extension SQLiteStore {
    public func refreshTokenStatus(_ digest: TokenDigest, at now: Date) async throws -> RefreshTokenStatus {
        try Self.refreshTokenStatus(digest, row: try await read(Self.refreshTokenStatusSQL, [.text(digest.hex)]).first, at: now)
    }

    public func revokeRefreshToken(_ digest: TokenDigest, clientID: String, at now: Date) async throws -> RefreshTokenStatus {
        defer { noteChange() }
        return try await transaction("refresh token revocation") { tx in
            let row = try tx.query(Self.refreshTokenStatusSQL, [.text(digest.hex)]).first
            let status = try Self.refreshTokenStatus(digest, row: row, at: now)
            switch status {
            case .active(let record, _), .rotated(let record), .expired(let record), .revoked(let record):
                if record.clientID == clientID { try Self.revokeGrant(record.grantID, at: now, in: tx) }
            case .unknown:
                break
            }
            return status
        }
    }

    static let refreshTokenStatusSQL = """
        SELECT r.client_id, r.scope, r.issued_at, r.expires_at, r.rotated_at, g.id AS g_id,
               g.user_id AS g_user_id, g.client_id AS g_client_id, g.scope AS g_scope,
               g.session_context AS g_session_context, g.created_at AS g_created_at,
               g.revoked_at AS g_revoked_at
        FROM refresh_tokens r JOIN grants g ON g.id = r.grant_id WHERE r.digest = ?
        """

    static func refreshTokenStatus(_ digest: TokenDigest, row: SQLiteRow?, at now: Date) throws -> RefreshTokenStatus {
        guard let row else { return .unknown }
        return try row.refreshTokenStatus(digest: digest, at: now)
    }
}
