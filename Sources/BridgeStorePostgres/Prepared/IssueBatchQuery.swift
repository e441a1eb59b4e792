import BridgeStore
import Foundation
import PostgresNIO

/// `startAuthorization`'s fast path for concurrent requests (`WriteBatcher`): for each request whose browser is
/// signed in and whose consent holds, the grant and code are created, all in one statement over arrays of the
/// requests' terms, so N authorize requests cost one round trip, one plan set-up and one commit. Its rule is
/// `StartAuthorizationQuery`'s, row by row; a request it does not issue for (no session, a sign-in too old, consent
/// missing) writes nothing here and is sent again alone as `StartAuthorizationQuery`, which parks it.
struct IssueBatchQuery: PreparedQuery {
    /// One request: `StartAuthorizationQuery`'s inputs when the session is known.
    struct Item: Sendable {
        var pending: PendingAuthorizationRecord
        var session: TokenDigest
        var grant: GrantRecord
        var code: AuthorizationCodeRecord
        var now: Int64
        var earliestSignIn: Int64
    }

    var items: [Item]

    typealias P = Parameter
    enum Parameter: Int, QueryParameter {
        case session = 1, now, earliestSignIn, clientID, consentNotNeeded, consentRemembered, scopes
        case grantID, scope, sessionContext, codeDigest, redirectURI, codeChallenge, codeChallengeMethod
        case codeExpiresAt, nonce, dpopKey
    }

    func bind(_ parameter: Parameter, to bindings: inout PostgresBindings) throws {
        switch parameter {
        case .session: bindings.append(items.map(\.session.hex))
        case .now: bindings.append(items.map(\.now))
        case .earliestSignIn: bindings.append(items.map(\.earliestSignIn))
        case .clientID: bindings.append(items.map(\.grant.clientID))
        case .consentNotNeeded: bindings.append(items.map { $0.pending.terms.consent == .notNeeded })
        case .consentRemembered: bindings.append(items.map { $0.pending.terms.consent == .remembered })
        // Scope values never hold a space (RFC 6749 §3.3), so the list travels as one string.
        case .scopes: bindings.append(items.map { $0.pending.terms.scopes.joined(separator: " ") })
        case .grantID: bindings.append(items.map(\.grant.id.rawValue))
        case .scope: bindings.append(items.map(\.grant.scope))
        case .sessionContext: try bindings.append(NullableArray(items.map(\.grant.sessionContext)))
        case .codeDigest: bindings.append(items.map(\.code.digest.hex))
        case .redirectURI: bindings.append(items.map(\.code.redirectURI))
        case .codeChallenge: try bindings.append(NullableArray(items.map(\.code.codeChallenge)))
        case .codeChallengeMethod: try bindings.append(NullableArray(items.map(\.code.codeChallengeMethod)))
        case .codeExpiresAt: bindings.append(items.map { Milliseconds.from($0.code.expiresAt) })
        case .nonce: try bindings.append(NullableArray(items.map(\.code.nonce)))
        case .dpopKey: try bindings.append(NullableArray(items.map(\.code.dpopKeyThumbprint)))
        }
    }

    /// The rows answered: `n` is the request's place in `items`, from 1; requests not issued for have no row.
    static let sql = """
        WITH i AS (
            SELECT * FROM unnest(\(P.session)::text[], \(P.now)::bigint[], \(P.earliestSignIn)::bigint[],
                \(P.clientID)::text[], \(P.consentNotNeeded)::bool[], \(P.consentRemembered)::bool[],
                \(P.scopes)::text[], \(P.grantID)::text[], \(P.scope)::text[], \(P.sessionContext)::text[],
                \(P.codeDigest)::text[], \(P.redirectURI)::text[], \(P.codeChallenge)::text[],
                \(P.codeChallengeMethod)::text[], \(P.codeExpiresAt)::bigint[], \(P.nonce)::text[],
                \(P.dpopKey)::text[])
            WITH ORDINALITY AS i (session, now, earliest_sign_in, client_id, consent_not_needed, consent_remembered,
                scopes, grant_id, scope, session_context, code_digest, redirect_uri, code_challenge,
                code_challenge_method, code_expires_at, nonce, dpop_jkt, n)
        ),
        ok AS (
            SELECT i.*, u.id AS u_id, u.sign_in_name AS u_sign_in_name, u.friendly_name AS u_friendly_name,
                u.password_hash AS u_password_hash, s.created_at AS s_created_at
            FROM i JOIN sessions s ON s.digest = i.session JOIN users u ON u.id = s.user_id
                LEFT JOIN consents c ON c.user_id = u.id AND c.client_id = i.client_id
            WHERE s.ended_at IS NULL AND s.expires_at > i.now AND s.created_at >= i.earliest_sign_in
                AND (i.consent_not_needed OR (i.consent_remembered
                    AND string_to_array(i.scopes, ' ') <@ string_to_array(coalesce(c.scope, ''), ' ')))
        ),
        grant_row AS (
            INSERT INTO grants (id, user_id, client_id, scope, session_context, created_at)
            SELECT grant_id, u_id, client_id, scope, session_context, now FROM ok
            RETURNING id
        ),
        code AS (
            INSERT INTO authorization_codes (digest, grant_id, client_id, redirect_uri, code_challenge,
                code_challenge_method, scope, issued_at, expires_at, nonce, auth_time, dpop_jkt)
            SELECT ok.code_digest, g.id, ok.client_id, ok.redirect_uri, ok.code_challenge, ok.code_challenge_method,
                ok.scope, ok.now, ok.code_expires_at, ok.nonce, ok.s_created_at, ok.dpop_jkt
            FROM ok JOIN grant_row g ON g.id = ok.grant_id
            RETURNING digest
        )
        SELECT ok.n, ok.u_id, ok.u_sign_in_name, ok.u_friendly_name, ok.u_password_hash, ok.s_created_at
        FROM ok JOIN code ON code.digest = ok.code_digest
        """
}
