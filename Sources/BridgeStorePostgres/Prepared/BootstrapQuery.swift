import BridgeStore
import PostgresNIO

/// `bootstrap`'s one statement: the token's status with its grant and user, and a changed session context recorded
/// when the token is live. Every `/wopibootstrapper` request whose token status is not kept sends it.
struct BootstrapQuery: PreparedQuery {
    var step: BootstrapStep
    var now: Int64

    typealias P = Parameter
    enum Parameter: Int, QueryParameter {
        case tokenID = 1, now, sessionContext
    }

    func bind(_ parameter: Parameter, to bindings: inout PostgresBindings) throws {
        switch parameter {
        case .tokenID: bindings.append(step.accessTokenID)
        case .now: bindings.append(now)
        case .sessionContext: bindings.append(step.sessionContext)
        }
    }

    static let sql = """
        WITH live AS (
            SELECT t.grant_id FROM access_tokens t JOIN grants g ON g.id = t.grant_id
                JOIN users u ON u.id = g.user_id
            WHERE t.token_id = \(P.tokenID) AND t.revoked_at IS NULL AND g.revoked_at IS NULL
                AND t.expires_at > \(P.now)
        ),
        context AS (
            UPDATE grants SET session_context = \(P.sessionContext)::text
            WHERE id = (SELECT grant_id FROM live) AND \(P.sessionContext)::text IS NOT NULL
                AND session_context IS DISTINCT FROM \(P.sessionContext)::text
            RETURNING id
        ),
        notified AS (SELECT \(notifyChange) FROM context)
        SELECT t.expires_at, t.revoked_at AS t_revoked_at, \(grantColumns(of: "g")),
            u.id AS u_id, u.sign_in_name AS u_sign_in_name, u.friendly_name AS u_friendly_name,
            u.password_hash AS u_password_hash, (SELECT count(*) FROM live) AS live,
            (SELECT count(*) FROM context) AS context, (SELECT count(*) FROM notified) AS notified
        FROM access_tokens t JOIN grants g ON g.id = t.grant_id LEFT JOIN users u ON u.id = g.user_id
        WHERE t.token_id = \(P.tokenID)
        """
}
