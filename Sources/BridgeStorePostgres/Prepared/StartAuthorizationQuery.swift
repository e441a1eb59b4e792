import BridgeStore
import Foundation
import PostgresNIO

/// `startAuthorization`'s one statement: the session, its user and their consent are read,
/// `AuthorizationDecision`'s rule is applied to them in SQL, and either the grant and code are created or the request
/// is parked. Every authorize request of a signed-in browser sends it.
struct StartAuthorizationQuery: PreparedQuery {
    var pending: PendingAuthorizationRecord
    var session: TokenDigest
    /// What `AuthorizationDecision.issued` makes of the request: written when the rule allows.
    var grant: GrantRecord
    var code: AuthorizationCodeRecord
    var park: Bool
    var now: Int64
    /// `AuthorizationDecision.earliestSignIn` in whole milliseconds, rounded up (`Int64.min` when there is none).
    var earliestSignIn: Int64

    typealias P = Parameter
    enum Parameter: Int, QueryParameter {
        case session = 1, now, earliestSignIn, clientID, consentNotNeeded, consentRemembered, scopes
        case grantID, grantClientID, grantScope, grantSessionContext
        case codeDigest, codeClientID, codeRedirectURI, codeChallenge, codeChallengeMethod, codeScope, codeExpiresAt
        case codeNonce
        case park, pendingDigest, browserDigest, csrfDigest, payload, createdAt, expiresAt, redirectURI, scope
        case challenge, challengeMethod, sessionContext, consent, signInAfter, maxAgeSeconds, nonce
        case codeDPoPKey, dpopKey
    }

    func bind(_ parameter: Parameter, to bindings: inout PostgresBindings) throws {
        let terms = pending.terms
        switch parameter {
        case .session: bindings.append(session.hex)
        case .now: bindings.append(now)
        case .earliestSignIn: bindings.append(earliestSignIn)
        case .clientID: bindings.append(pending.clientID)
        case .consentNotNeeded: bindings.append(terms.consent == .notNeeded)
        case .consentRemembered: bindings.append(terms.consent == .remembered)
        case .scopes: bindings.append(terms.scopes)
        case .grantID: bindings.append(grant.id.rawValue)
        case .grantClientID: bindings.append(grant.clientID)
        case .grantScope: bindings.append(grant.scope)
        case .grantSessionContext: bindings.append(grant.sessionContext)
        case .codeDigest: bindings.append(code.digest.hex)
        case .codeClientID: bindings.append(code.clientID)
        case .codeRedirectURI: bindings.append(code.redirectURI)
        case .codeChallenge: bindings.append(code.codeChallenge)
        case .codeChallengeMethod: bindings.append(code.codeChallengeMethod)
        case .codeScope: bindings.append(code.scope)
        case .codeExpiresAt: bindings.append(Milliseconds.from(code.expiresAt))
        case .codeNonce: bindings.append(code.nonce)
        case .park: bindings.append(park)
        case .pendingDigest: bindings.append(pending.digest.hex)
        case .browserDigest: bindings.append(pending.browserDigest.hex)
        case .csrfDigest: bindings.append(pending.csrfDigest.hex)
        case .payload: bindings.append(pending.payload)
        case .createdAt: bindings.append(Milliseconds.from(pending.createdAt))
        case .expiresAt: bindings.append(Milliseconds.from(pending.expiresAt))
        case .redirectURI: bindings.append(terms.redirectURI)
        case .scope: bindings.append(terms.scope)
        case .challenge: bindings.append(terms.codeChallenge)
        case .challengeMethod: bindings.append(terms.codeChallengeMethod)
        case .sessionContext: bindings.append(terms.sessionContext)
        case .consent: bindings.append(terms.consent.rawValue)
        case .signInAfter: bindings.append(Milliseconds.from(terms.signInAfter))
        case .maxAgeSeconds: bindings.append(terms.maxAgeSeconds.map { Int64($0) })
        case .nonce: bindings.append(terms.nonce)
        case .codeDPoPKey: bindings.append(code.dpopKeyThumbprint)
        case .dpopKey: bindings.append(terms.dpopKeyThumbprint)
        }
    }

    static let sql = """
        WITH s AS (
            SELECT u.id AS u_id, u.sign_in_name AS u_sign_in_name, u.friendly_name AS u_friendly_name,
                u.password_hash AS u_password_hash, c.scope AS c_scope, s.created_at AS s_created_at
            FROM sessions s JOIN users u ON u.id = s.user_id
                LEFT JOIN consents c ON c.user_id = u.id AND c.client_id = \(P.clientID)
            WHERE s.digest = \(P.session) AND s.ended_at IS NULL AND s.expires_at > \(P.now)
                AND s.created_at >= \(P.earliestSignIn)
        ),
        ok AS (
            SELECT * FROM s
            WHERE \(P.consentNotNeeded)
                OR (\(P.consentRemembered) AND \(P.scopes)::text[] <@ string_to_array(coalesce(c_scope, ''), ' '))
        ),
        grant_row AS (
            INSERT INTO grants (id, user_id, client_id, scope, session_context, created_at)
            SELECT \(P.grantID), u_id, \(P.grantClientID), \(P.grantScope), \(P.grantSessionContext)::text, \(P.now)
            FROM ok
            RETURNING id
        ),
        code AS (
            INSERT INTO authorization_codes (digest, grant_id, client_id, redirect_uri, code_challenge,
                code_challenge_method, scope, issued_at, expires_at, nonce, auth_time, dpop_jkt)
            SELECT \(P.codeDigest), id, \(P.codeClientID), \(P.codeRedirectURI), \(P.codeChallenge)::text,
                \(P.codeChallengeMethod)::text, \(P.codeScope), \(P.now), \(P.codeExpiresAt),
                \(P.codeNonce)::text, (SELECT s_created_at FROM ok), \(P.codeDPoPKey)::text
            FROM grant_row
            RETURNING digest
        ),
        parked AS (
            INSERT INTO pending_authorizations
                (digest, client_id, browser_digest, csrf_digest, payload, created_at, expires_at, redirect_uri,
                 scope, code_challenge, code_challenge_method, session_context, consent, sign_in_after,
                 max_age_seconds, nonce, dpop_jkt)
            SELECT \(P.pendingDigest), \(P.clientID), \(P.browserDigest), \(P.csrfDigest), \(P.payload),
                \(P.createdAt), \(P.expiresAt), \(P.redirectURI), \(P.scope), \(P.challenge)::text,
                \(P.challengeMethod)::text, \(P.sessionContext)::text, \(P.consent), \(P.signInAfter)::bigint,
                \(P.maxAgeSeconds)::bigint, \(P.nonce)::text, \(P.dpopKey)::text
            WHERE \(P.park) AND NOT EXISTS (SELECT 1 FROM ok)
            RETURNING digest
        )
        SELECT s.*, (SELECT count(*) FROM code) AS issued, (SELECT count(*) FROM parked) AS parked
        FROM (SELECT 1) AS one LEFT JOIN s ON true
        """
}
