import BridgeStore
import PostgresNIO

/// `continueAuthorization`'s one statement (see there): the parked request, checked against the browser, its
/// session and consent, and the grant and code issued when they suffice. Every interaction step after a sign-in or a
/// consent sends it.
struct ContinueAuthorizationQuery: PreparedQuery {
    var interaction: TokenDigest
    var browser: TokenDigest?
    var session: TokenDigest?
    var consent: Bool
    var issue: CodeIssue
    var now: Int64
    /// `now` in whole milliseconds, rounded up (the `max_age` bound).
    var nowCeiling: Int64

    typealias P = Parameter
    enum Parameter: Int, QueryParameter {
        case interaction = 1, now, browser, session, nowCeiling, consent, grantID, codeDigest, codeExpiresAt
    }

    func bind(_ parameter: Parameter, to bindings: inout PostgresBindings) throws {
        switch parameter {
        case .interaction: bindings.append(interaction.hex)
        case .now: bindings.append(now)
        case .browser: bindings.append(browser?.hex)
        case .session: bindings.append(session?.hex)
        case .nowCeiling: bindings.append(nowCeiling)
        case .consent: bindings.append(consent)
        case .grantID: bindings.append(issue.grantID.rawValue)
        case .codeDigest: bindings.append(issue.codeDigest.hex)
        case .codeExpiresAt: bindings.append(Milliseconds.from(issue.codeExpiresAt))
        }
    }

    /// The parked request's columns as `PostgresStore.pendingAuthorization` reads them.
    static let pendingColumns = [
        "digest", "client_id", "browser_digest", "csrf_digest", "payload", "created_at", "expires_at", "redirect_uri",
        "scope", "code_challenge", "code_challenge_method", "session_context", "consent", "sign_in_after",
        "max_age_seconds", "nonce", "dpop_jkt",
    ].map { "p.\($0)" }.joined(separator: ", ")

    static let sql = """
        WITH p AS (
            SELECT * FROM pending_authorizations
            WHERE digest = \(P.interaction) AND expires_at > \(P.now)
        ),
        mine AS (SELECT * FROM p WHERE browser_digest = \(P.browser)::text),
        s AS (
            SELECT u.id AS u_id, u.sign_in_name AS u_sign_in_name, u.friendly_name AS u_friendly_name,
                u.password_hash AS u_password_hash, c.scope AS c_scope, mine.client_id AS p_client_id,
                mine.scope AS p_scope, mine.consent AS p_consent, s.created_at AS s_created_at
            FROM mine JOIN sessions s ON s.digest = \(P.session)::text AND s.ended_at IS NULL
                    AND s.expires_at > \(P.now)
                    AND s.created_at >= coalesce(
                        greatest(mine.sign_in_after, \(P.nowCeiling) - mine.max_age_seconds * 1000),
                        -9223372036854775808)
                JOIN users u ON u.id = s.user_id
                LEFT JOIN consents c ON c.user_id = u.id AND c.client_id = mine.client_id
        ),
        allowed AS (
            INSERT INTO consents (user_id, client_id, scope, granted_at)
            SELECT u_id, p_client_id,
                array_to_string(ARRAY(
                    SELECT DISTINCT v COLLATE "C" FROM unnest(
                        string_to_array(coalesce(c_scope, ''), ' ') || string_to_array(p_scope, ' ')) AS v
                    WHERE v <> '' ORDER BY 1), ' '),
                \(P.now)
            FROM s WHERE \(P.consent)
            ON CONFLICT (user_id, client_id) DO UPDATE SET scope = excluded.scope, granted_at = excluded.granted_at
        ),
        ok AS (
            SELECT * FROM s
            WHERE \(P.consent) OR p_consent = 'not_needed'
                OR (p_consent = 'remembered'
                    -- '' joins the consented side: a doubled space in the request is no missing scope.
                    AND string_to_array(p_scope, ' ') <@ (string_to_array(coalesce(c_scope, ''), ' ') || '{""}'::text[]))
        ),
        taken AS (
            DELETE FROM pending_authorizations
            WHERE digest = \(P.interaction) AND EXISTS (SELECT 1 FROM ok)
            RETURNING *
        ),
        grant_row AS (
            INSERT INTO grants (id, user_id, client_id, scope, session_context, created_at)
            SELECT \(P.grantID), ok.u_id, taken.client_id, taken.scope, taken.session_context, \(P.now)
            FROM taken, ok
            RETURNING id
        ),
        code AS (
            INSERT INTO authorization_codes (digest, grant_id, client_id, redirect_uri, code_challenge,
                code_challenge_method, scope, issued_at, expires_at, nonce, auth_time, dpop_jkt)
            SELECT \(P.codeDigest), grant_row.id, taken.client_id, taken.redirect_uri, taken.code_challenge,
                taken.code_challenge_method, taken.scope, \(P.now), \(P.codeExpiresAt),
                taken.nonce, (SELECT s_created_at FROM ok), taken.dpop_jkt
            FROM grant_row, taken
            RETURNING digest
        )
        SELECT \(pendingColumns), (SELECT count(*) FROM mine) AS mine, s.u_id, s.u_sign_in_name,
            s.u_friendly_name, s.u_password_hash, s.s_created_at, (SELECT count(*) FROM ok) AS ok, (SELECT count(*) FROM code) AS issued
        FROM p LEFT JOIN s ON true
        """
}
