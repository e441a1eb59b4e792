import BridgeStore
/// The SQLite schema as an ordered list of migrations (one statement per string), applied on open and recorded in
/// `PRAGMA user_version`. Never edit a released migration: append one.
///
/// Times are integer milliseconds since the epoch and ids/digests are text, so the same tables map one to one onto
/// PostgreSQL (`bigint`, `text`) later. Revocation lives on the grant; token lookups join it, so revoking a grant is
/// one row update however many tokens hang off it.
enum SQLiteSchema {
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE users (
                id TEXT PRIMARY KEY NOT NULL,
                sign_in_name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                friendly_name TEXT,
                password_hash TEXT
            )
            """,
            """
            CREATE TABLE grants (
                id TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL,
                client_id TEXT NOT NULL,
                scope TEXT NOT NULL,
                session_context TEXT,
                created_at INTEGER NOT NULL,
                revoked_at INTEGER
            )
            """,
            "CREATE INDEX grants_by_user ON grants(user_id)",
            """
            CREATE TABLE access_tokens (
                token_id TEXT PRIMARY KEY NOT NULL,
                grant_id TEXT NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
                issued_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                revoked_at INTEGER
            )
            """,
            "CREATE INDEX access_tokens_by_grant ON access_tokens(grant_id)",
            """
            CREATE TABLE wopi_access_tokens (
                digest TEXT PRIMARY KEY NOT NULL,
                grant_id TEXT NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
                user_id TEXT NOT NULL,
                wopi_source TEXT,
                issued_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX wopi_access_tokens_by_grant ON wopi_access_tokens(grant_id)",
            """
            CREATE TABLE authorization_codes (
                digest TEXT PRIMARY KEY NOT NULL,
                grant_id TEXT NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
                client_id TEXT NOT NULL,
                redirect_uri TEXT NOT NULL,
                code_challenge TEXT,
                code_challenge_method TEXT,
                scope TEXT NOT NULL,
                issued_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                redeemed_at INTEGER
            )
            """,
            "CREATE INDEX authorization_codes_by_grant ON authorization_codes(grant_id)",
            """
            CREATE TABLE refresh_tokens (
                digest TEXT PRIMARY KEY NOT NULL,
                grant_id TEXT NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
                client_id TEXT NOT NULL,
                scope TEXT NOT NULL,
                issued_at INTEGER NOT NULL,
                expires_at INTEGER,
                rotated_at INTEGER
            )
            """,
            "CREATE INDEX refresh_tokens_by_grant ON refresh_tokens(grant_id)",
            """
            CREATE TABLE sessions (
                digest TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                ended_at INTEGER
            )
            """,
            "CREATE INDEX sessions_by_user ON sessions(user_id)",
        ],
        // 2: the authorize endpoint and sign-in pages (issue 5).
        [
            """
            CREATE TABLE pending_authorizations (
                digest TEXT PRIMARY KEY NOT NULL,
                client_id TEXT NOT NULL,
                browser_digest TEXT NOT NULL,
                csrf_digest TEXT NOT NULL,
                payload TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE consents (
                user_id TEXT NOT NULL,
                client_id TEXT NOT NULL,
                scope TEXT NOT NULL,
                granted_at INTEGER NOT NULL,
                PRIMARY KEY (user_id, client_id)
            )
            """,
            """
            CREATE TABLE sign_in_failures (
                key TEXT NOT NULL,
                failed_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX sign_in_failures_by_key ON sign_in_failures(key, failed_at)",
        ],
        // 3: a token response's access and refresh token in one INSERT statement (`recordTokenResponses`): one
        // round trip to the database per batch instead of BEGIN, two INSERTs and COMMIT. A statement is atomic, so
        // both rows or neither still holds (sqlite.org/lang_createtrigger.html#instead_of_triggers).
        [
            """
            CREATE VIEW token_responses AS
            SELECT a.token_id, a.grant_id, a.issued_at, a.expires_at, r.digest AS refresh_digest,
                r.grant_id AS refresh_grant_id, r.client_id AS refresh_client_id, r.scope AS refresh_scope,
                r.issued_at AS refresh_issued_at, r.expires_at AS refresh_expires_at
            FROM access_tokens a LEFT JOIN refresh_tokens r ON 0
            """,
            """
            CREATE TRIGGER token_responses_insert INSTEAD OF INSERT ON token_responses
            BEGIN
                INSERT INTO access_tokens (token_id, grant_id, issued_at, expires_at)
                VALUES (NEW.token_id, NEW.grant_id, NEW.issued_at, NEW.expires_at);
                INSERT INTO refresh_tokens (digest, grant_id, client_id, scope, issued_at, expires_at)
                SELECT NEW.refresh_digest, NEW.refresh_grant_id, NEW.refresh_client_id, NEW.refresh_scope,
                    NEW.refresh_issued_at, NEW.refresh_expires_at
                WHERE NEW.refresh_digest IS NOT NULL;
            END
            """,
        ],
        // 4: a pending request carries its terms in columns, so one store call can check the session and consent
        // and issue the code (`startAuthorization`, `continueAuthorization`). Requests parked before this version
        // lack them and are dropped: their users start the sign-in again.
        [
            "DELETE FROM pending_authorizations",
            "ALTER TABLE pending_authorizations ADD COLUMN redirect_uri TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE pending_authorizations ADD COLUMN scope TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE pending_authorizations ADD COLUMN code_challenge TEXT",
            "ALTER TABLE pending_authorizations ADD COLUMN code_challenge_method TEXT",
            "ALTER TABLE pending_authorizations ADD COLUMN session_context TEXT",
            "ALTER TABLE pending_authorizations ADD COLUMN consent TEXT NOT NULL DEFAULT 'remembered'",
            "ALTER TABLE pending_authorizations ADD COLUMN sign_in_after INTEGER",
            "ALTER TABLE pending_authorizations ADD COLUMN max_age_seconds INTEGER",
        ],
        // 5: OpenID Connect: the request's nonce travels to the code, with the sign-in time the ID token reports,
        // and users may have the email and phone claims (OpenID Connect Core §5.1).
        [
            "ALTER TABLE pending_authorizations ADD COLUMN nonce TEXT",
            "ALTER TABLE authorization_codes ADD COLUMN nonce TEXT",
            "ALTER TABLE authorization_codes ADD COLUMN auth_time INTEGER",
            "ALTER TABLE users ADD COLUMN email TEXT",
            "ALTER TABLE users ADD COLUMN phone_number TEXT",
            // The app-to-app flow's parked references (`AppToAppStore`).
            """
            CREATE TABLE app_to_app_requests (
                reference_digest TEXT PRIMARY KEY NOT NULL,
                interaction_digest TEXT NOT NULL,
                client_id TEXT NOT NULL,
                payload TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                user_id TEXT,
                resume_digest TEXT UNIQUE,
                decided_at INTEGER,
                resumed_at INTEGER
            )
            """,
        ],
        // 6: session exchange codes (`POST /oauth/exchange` with type=session, `ExchangeStore`), stored hashed and
        // kept after use until they expire, so a replay is told apart from an unknown code.
        [
            """
            CREATE TABLE session_exchange_codes (
                digest TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL,
                client_id TEXT NOT NULL,
                redirect_uri TEXT NOT NULL,
                issued_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                used_at INTEGER
            )
            """,
            "CREATE INDEX session_exchange_codes_by_expiry ON session_exchange_codes (expires_at)",
        ],
        // 7: sign-in through upstream OpenID providers (`UpstreamStore`): login attempts keyed by their state's digest,
        // identities linked to users, and the broker's PKCE-bound sessions.
        [
            """
            CREATE TABLE upstream_logins (
                state_digest TEXT PRIMARY KEY NOT NULL,
                upstream_id TEXT NOT NULL,
                nonce_digest TEXT NOT NULL,
                code_verifier TEXT NOT NULL,
                interaction_id TEXT,
                browser_digest TEXT,
                broker_session_id TEXT,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                used_at INTEGER
            )
            """,
            "CREATE INDEX upstream_logins_by_expiry ON upstream_logins (expires_at)",
            """
            CREATE TABLE linked_identities (
                upstream_id TEXT NOT NULL,
                subject TEXT NOT NULL,
                user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                linked_at INTEGER NOT NULL,
                PRIMARY KEY (upstream_id, subject)
            )
            """,
            "CREATE INDEX linked_identities_by_user ON linked_identities (user_id)",
            """
            CREATE TABLE broker_sessions (
                digest TEXT PRIMARY KEY NOT NULL,
                upstream_id TEXT NOT NULL,
                client_id TEXT NOT NULL,
                redirect_uri TEXT NOT NULL,
                code_challenge TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                user_id TEXT,
                completed_at INTEGER,
                redeemed_at INTEGER
            )
            """,
            "CREATE INDEX broker_sessions_by_expiry ON broker_sessions (expires_at)",
        ],
        // 8: the purge finds each batch of expired rows through an index (`purgeExpired(before:limit:)`). Without
        // one, every batch scanned the tables whose expired rows were already gone to their end; expiries grow with
        // time, so each insert adds to the index's last page.
        [
            "CREATE INDEX access_tokens_by_expiry ON access_tokens (expires_at)",
            "CREATE INDEX wopi_access_tokens_by_expiry ON wopi_access_tokens (expires_at)",
            "CREATE INDEX authorization_codes_by_expiry ON authorization_codes (expires_at)",
            "CREATE INDEX refresh_tokens_by_expiry ON refresh_tokens (expires_at)",
            "CREATE INDEX sessions_by_expiry ON sessions (expires_at)",
            "CREATE INDEX pending_authorizations_by_expiry ON pending_authorizations (expires_at)",
            "CREATE INDEX app_to_app_requests_by_expiry ON app_to_app_requests (expires_at)",
            "CREATE INDEX sign_in_failures_by_time ON sign_in_failures (failed_at)",
        ],
        // 9: WOPI access tokens are sealed by the server (`WopiAccessTokenSeal`) and checked against their grant,
        // not looked up as rows; the bootstrap no longer writes them.
        [
            "DROP TABLE wopi_access_tokens",
        ],
        // 10: a broker session whose upstream sign-in failed keeps the error the app is told, so that polling it
        // ends at once (`failBrokerSession`) instead of answering "pending" until it expires.
        [
            "ALTER TABLE broker_sessions ADD COLUMN failure TEXT",
        ],
        // 11: DPoP proofs already used, until their `iat` window ends (`DPoPProofStore`, RFC 9449 §11.1), and
        // pushed authorization requests.
        [
            "CREATE TABLE dpop_proofs (digest TEXT PRIMARY KEY NOT NULL, expires_at INTEGER NOT NULL)",
            "CREATE INDEX dpop_proofs_by_expiry ON dpop_proofs (expires_at)",
            // Pushed authorization requests (`PushedAuthorizationStore`, RFC 9126), kept after use until they expire.
            """
            CREATE TABLE pushed_authorization_requests (
                digest TEXT PRIMARY KEY NOT NULL,
                client_id TEXT NOT NULL,
                parameters TEXT NOT NULL,
                pushed_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                used_at INTEGER
            )
            """,
            "CREATE INDEX pushed_authorization_requests_by_expiry ON pushed_authorization_requests (expires_at)",
        ],
        // 12: DPoP's `dpop_jkt` (RFC 9449 §10) travels from the authorize request to its code, as `nonce` does.
        [
            "ALTER TABLE pending_authorizations ADD COLUMN dpop_jkt TEXT",
            "ALTER TABLE authorization_codes ADD COLUMN dpop_jkt TEXT",
        ],
        // Device sessions of OpenID Connect Native SSO for Mobile Apps 1.0 draft 07 (`DeviceSSOStore`), found by the
        // device secret's digest, by `sid` (logout) and by user (a password change or logout ends them all).
        [
            """
            CREATE TABLE device_sessions (
                digest TEXT PRIMARY KEY NOT NULL,
                sid TEXT NOT NULL UNIQUE,
                user_id TEXT NOT NULL,
                client_id TEXT NOT NULL,
                sso_group TEXT NOT NULL,
                scope TEXT NOT NULL,
                auth_time INTEGER,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                ended_at INTEGER
            )
            """,
            "CREATE INDEX device_sessions_by_user ON device_sessions (user_id)",
            "CREATE INDEX device_sessions_by_expiry ON device_sessions (expires_at)",
        ],
        // 14: the authorization challenge endpoint's auth sessions (`AuthSessionStore`,
        // draft-ietf-oauth-first-party-apps-04 §5.3.1): by the digest of the value, deleted when taken.
        [
            """
            CREATE TABLE auth_sessions (
                digest TEXT PRIMARY KEY NOT NULL,
                client_id TEXT NOT NULL,
                interaction_digest TEXT NOT NULL,
                browser_digest TEXT NOT NULL,
                session_digest TEXT,
                app_to_app_reference TEXT,
                sign_in_name TEXT,
                dpop_jkt TEXT,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX auth_sessions_by_expiry ON auth_sessions (expires_at)",
        ],
    ]
}
