import BridgeStore
import Foundation

/// The bootstrap step: one read of the access token, its grant and its user on a WAL reader, which never waits for
/// the writer. The answer's WOPI access tokens are sealed by the server and not recorded, so only a changed session
/// context (once per sign-in) makes a write.
extension SQLiteStore {
    public func bootstrap(_ step: BootstrapStep, at now: Date) async throws -> BootstrapStatus {
        guard
            let row = try await read(
                """
                SELECT t.expires_at, t.revoked_at AS t_revoked_at, g.id AS g_id, g.user_id AS g_user_id,
                       g.client_id AS g_client_id, g.scope AS g_scope, g.session_context AS g_session_context,
                       g.created_at AS g_created_at, g.revoked_at AS g_revoked_at, u.id AS u_id,
                       u.sign_in_name AS u_sign_in_name, u.friendly_name AS u_friendly_name,
                       u.password_hash AS u_password_hash
                FROM access_tokens t JOIN grants g ON g.id = t.grant_id LEFT JOIN users u ON u.id = g.user_id
                WHERE t.token_id = ?
                """,
                [.text(step.accessTokenID)]
            ).first
        else { return .unknown }
        let grant = try row.grant(prefix: "g_")
        if try grant.revokedAt != nil || row.optionalInt64("t_revoked_at") != nil { return .revoked }
        if try row.date("expires_at") <= now { return .expired }
        guard try row.optionalText("u_id") != nil else { return .unknown }
        let status = BootstrapStatus.active(grant, try Self.user(row, prefix: "u_"))
        guard let context = step.sessionContext, context != grant.sessionContext else { return status }
        return try await recordingSessionContext(context, in: status)
    }

    /// Office sends the session context on every call and it changes once per sign-in: only a change costs this
    /// write. A function of its own, so that the usual case's async frame does not hold this path's temporaries.
    @inline(never)
    func recordingSessionContext(_ context: String, in status: BootstrapStatus) async throws -> BootstrapStatus {
        guard case .active(var grant, let user) = status else { return status }
        _ = try await recordSessionContext(context, grant: grant.id)
        grant.sessionContext = context
        return .active(grant, user)
    }
}
