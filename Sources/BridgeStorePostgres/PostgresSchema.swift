/// The PostgreSQL schema as numbered migrations, applied in order and recorded in `schema_migrations`. Never edit a
/// released migration: append one.
///
/// The tables mirror the SQLite store's: times are `bigint` milliseconds since the epoch and ids and digests are
/// `text`, so the two stores read and write the same values. Revocation lives on the grant; token lookups join it.
enum PostgresSchema {
    /// Every instance takes this transaction-level advisory lock before migrating, so instances that start together
    /// migrate one after the other (postgresql.org/docs/15/explicit-locking.html §13.3.5). Any fixed number works;
    /// this one is "SIBR" in ASCII.
    static let migrationLock: Int64 = 0x5349_4252

    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE users (
                id text PRIMARY KEY,
                sign_in_name text NOT NULL,
                friendly_name text,
                password_hash text
            )
            """,
            // Sign-in names are unique ignoring ASCII case, as SQLite's NOCASE: under the "C" collation lower()
            // folds only A-Z (postgresql.org/docs/15/functions-string.html).
            """
            CREATE UNIQUE INDEX users_by_sign_in_name ON users (lower(sign_in_name COLLATE "C"))
            """,
            """
            CREATE TABLE grants (
                id text PRIMARY KEY,
                user_id text NOT NULL,
                client_id text NOT NULL,
                scope text NOT NULL,
                session_context text,
                created_at bigint NOT NULL,
                revoked_at bigint
            )
            """,
            "CREATE INDEX grants_by_user ON grants (user_id)",
            """
            CREATE TABLE access_tokens (
                token_id text PRIMARY KEY,
                grant_id text NOT NULL REFERENCES grants (id) ON DELETE CASCADE,
                issued_at bigint NOT NULL,
                expires_at bigint NOT NULL,
                revoked_at bigint
            )
            """,
            "CREATE INDEX access_tokens_by_grant ON access_tokens (grant_id)",
            """
            CREATE TABLE wopi_access_tokens (
                digest text PRIMARY KEY,
                grant_id text NOT NULL REFERENCES grants (id) ON DELETE CASCADE,
                user_id text NOT NULL,
                wopi_source text,
                issued_at bigint NOT NULL,
                expires_at bigint NOT NULL
            )
            """,
            "CREATE INDEX wopi_access_tokens_by_grant ON wopi_access_tokens (grant_id)",
            """
            CREATE TABLE authorization_codes (
                digest text PRIMARY KEY,
                grant_id text NOT NULL REFERENCES grants (id) ON DELETE CASCADE,
                client_id text NOT NULL,
                redirect_uri text NOT NULL,
                code_challenge text,
                code_challenge_method text,
                scope text NOT NULL,
                issued_at bigint NOT NULL,
                expires_at bigint NOT NULL,
                redeemed_at bigint
            )
            """,
            "CREATE INDEX authorization_codes_by_grant ON authorization_codes (grant_id)",
            """
            CREATE TABLE refresh_tokens (
                digest text PRIMARY KEY,
                grant_id text NOT NULL REFERENCES grants (id) ON DELETE CASCADE,
                client_id text NOT NULL,
                scope text NOT NULL,
                issued_at bigint NOT NULL,
                expires_at bigint,
                rotated_at bigint
            )
            """,
            "CREATE INDEX refresh_tokens_by_grant ON refresh_tokens (grant_id)",
            """
            CREATE TABLE sessions (
                digest text PRIMARY KEY,
                user_id text NOT NULL,
                created_at bigint NOT NULL,
                expires_at bigint NOT NULL,
                ended_at bigint
            )
            """,
            "CREATE INDEX sessions_by_user ON sessions (user_id)",
            """
            CREATE TABLE pending_authorizations (
                digest text PRIMARY KEY,
                client_id text NOT NULL,
                browser_digest text NOT NULL,
                csrf_digest text NOT NULL,
                payload text NOT NULL,
                created_at bigint NOT NULL,
                expires_at bigint NOT NULL,
                -- The request's terms in columns, so one call can check session and consent and issue the code.
                redirect_uri text NOT NULL,
                scope text NOT NULL,
                code_challenge text,
                code_challenge_method text,
                session_context text,
                consent text NOT NULL,
                sign_in_after bigint,
                max_age_seconds bigint
            )
            """,
            """
            CREATE TABLE consents (
                user_id text NOT NULL,
                client_id text NOT NULL,
                scope text NOT NULL,
                granted_at bigint NOT NULL,
                PRIMARY KEY (user_id, client_id)
            )
            """,
            """
            CREATE TABLE sign_in_failures (
                key text NOT NULL,
                failed_at bigint NOT NULL
            )
            """,
            "CREATE INDEX sign_in_failures_by_key ON sign_in_failures (key, failed_at)",
            // Purging by expiry scans these; without indexes every purge reads whole tables.
            "CREATE INDEX access_tokens_by_expiry ON access_tokens (expires_at)",
            "CREATE INDEX wopi_access_tokens_by_expiry ON wopi_access_tokens (expires_at)",
            "CREATE INDEX authorization_codes_by_expiry ON authorization_codes (expires_at)",
            "CREATE INDEX refresh_tokens_by_expiry ON refresh_tokens (expires_at)",
            "CREATE INDEX sessions_by_expiry ON sessions (expires_at)",
            "CREATE INDEX pending_authorizations_by_expiry ON pending_authorizations (expires_at)",
        ],
        // 2: OpenID Connect: the request's nonce travels to the code, with the sign-in time the ID token reports,
        // and users may have the email and phone claims (OpenID Connect Core §5.1).
        [
            "ALTER TABLE pending_authorizations ADD COLUMN nonce text",
            "ALTER TABLE authorization_codes ADD COLUMN nonce text",
            "ALTER TABLE authorization_codes ADD COLUMN auth_time bigint",
            "ALTER TABLE users ADD COLUMN email text",
            "ALTER TABLE users ADD COLUMN phone_number text",
            // The app-to-app flow's parked references (`AppToAppStore`).
            """
            CREATE TABLE app_to_app_requests (
                reference_digest text PRIMARY KEY,
                interaction_digest text NOT NULL,
                client_id text NOT NULL,
                payload text NOT NULL,
                created_at bigint NOT NULL,
                expires_at bigint NOT NULL,
                user_id text,
                resume_digest text UNIQUE,
                decided_at bigint,
                resumed_at bigint
            )
            """,
            "CREATE INDEX app_to_app_requests_by_expiry ON app_to_app_requests (expires_at)",
        ],
        // 3: session exchange codes (`ExchangeStore`), stored hashed and kept after use until they expire.
        [
            """
            CREATE TABLE session_exchange_codes (
                digest text PRIMARY KEY,
                user_id text NOT NULL,
                client_id text NOT NULL,
                redirect_uri text NOT NULL,
                issued_at bigint NOT NULL,
                expires_at bigint NOT NULL,
                used_at bigint
            )
            """,
            "CREATE INDEX session_exchange_codes_by_expiry ON session_exchange_codes (expires_at)",
        ],
        // 4: sign-in through upstream OpenID providers (`UpstreamStore`): login attempts keyed by their state's digest,
        // identities linked to users, and the broker's PKCE-bound sessions.
        [
            """
            CREATE TABLE upstream_logins (
                state_digest text PRIMARY KEY,
                upstream_id text NOT NULL,
                nonce_digest text NOT NULL,
                code_verifier text NOT NULL,
                interaction_id text,
                browser_digest text,
                broker_session_id text,
                created_at bigint NOT NULL,
                expires_at bigint NOT NULL,
                used_at bigint
            )
            """,
            "CREATE INDEX upstream_logins_by_expiry ON upstream_logins (expires_at)",
            """
            CREATE TABLE linked_identities (
                upstream_id text NOT NULL,
                subject text NOT NULL,
                user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                linked_at bigint NOT NULL,
                PRIMARY KEY (upstream_id, subject)
            )
            """,
            "CREATE INDEX linked_identities_by_user ON linked_identities (user_id)",
            """
            CREATE TABLE broker_sessions (
                digest text PRIMARY KEY,
                upstream_id text NOT NULL,
                client_id text NOT NULL,
                redirect_uri text NOT NULL,
                code_challenge text NOT NULL,
                created_at bigint NOT NULL,
                expires_at bigint NOT NULL,
                user_id text,
                completed_at bigint,
                redeemed_at bigint
            )
            """,
            "CREATE INDEX broker_sessions_by_expiry ON broker_sessions (expires_at)",
        ],
        // 5: WOPI access tokens are sealed by the server (`WopiAccessTokenSeal`) and checked against their grant,
        // not looked up as rows; the bootstrap no longer writes them.
        [
            "DROP TABLE wopi_access_tokens",
        ],
        // 6: a broker session whose upstream sign-in failed keeps the error the app is told (`failBrokerSession`).
        [
            "ALTER TABLE broker_sessions ADD COLUMN failure text",
        ],
        // 7: DPoP proofs already used, until their `iat` window ends (`DPoPProofStore`, RFC 9449 §11.1), and
        // pushed authorization requests.
        [
            "CREATE TABLE dpop_proofs (digest text PRIMARY KEY, expires_at bigint NOT NULL)",
            "CREATE INDEX dpop_proofs_by_expiry ON dpop_proofs (expires_at)",
            // Pushed authorization requests (`PushedAuthorizationStore`, RFC 9126), kept after use until they expire.
            """
            CREATE TABLE pushed_authorization_requests (
                digest text PRIMARY KEY,
                client_id text NOT NULL,
                parameters text NOT NULL,
                pushed_at bigint NOT NULL,
                expires_at bigint NOT NULL,
                used_at bigint
            )
            """,
            "CREATE INDEX pushed_authorization_requests_by_expiry ON pushed_authorization_requests (expires_at)",
        ],
        // 8: DPoP's `dpop_jkt` (RFC 9449 §10) travels from the authorize request to its code, as `nonce` does.
        [
            "ALTER TABLE pending_authorizations ADD COLUMN dpop_jkt text",
            "ALTER TABLE authorization_codes ADD COLUMN dpop_jkt text",
        ],
        // 9: no statement finds codes or tokens by their grant (lookups go from the token to its grant, and grants are
        // never deleted, so the cascades never search), yet every code flow wrote two of these indexes. Their foreign
        // keys stay (postgresql.org/docs/15/ddl-constraints.html §5.4.5: the referencing side needs no index).
        [
            "DROP INDEX authorization_codes_by_grant",
            "DROP INDEX access_tokens_by_grant",
            "DROP INDEX refresh_tokens_by_grant",
        ],
        // Device sessions of OpenID Connect Native SSO for Mobile Apps 1.0 draft 07 (`DeviceSSOStore`), found by the
        // device secret's digest, by `sid` (logout) and by user (a password change or logout ends them all).
        [
            """
            CREATE TABLE device_sessions (
                digest text PRIMARY KEY,
                sid text NOT NULL UNIQUE,
                user_id text NOT NULL,
                client_id text NOT NULL,
                sso_group text NOT NULL,
                scope text NOT NULL,
                auth_time bigint,
                created_at bigint NOT NULL,
                expires_at bigint NOT NULL,
                ended_at bigint
            )
            """,
            "CREATE INDEX device_sessions_by_user ON device_sessions (user_id)",
            "CREATE INDEX device_sessions_by_expiry ON device_sessions (expires_at)",
        ],
        // 11: the authorization challenge endpoint's auth sessions (`AuthSessionStore`,
        // draft-ietf-oauth-first-party-apps-04 §5.3.1): by the digest of the value, deleted when taken.
        [
            """
            CREATE TABLE auth_sessions (
                digest text PRIMARY KEY,
                client_id text NOT NULL,
                interaction_digest text NOT NULL,
                browser_digest text NOT NULL,
                session_digest text,
                app_to_app_reference text,
                sign_in_name text,
                dpop_jkt text,
                created_at bigint NOT NULL,
                expires_at bigint NOT NULL
            )
            """,
            "CREATE INDEX auth_sessions_by_expiry ON auth_sessions (expires_at)",
        ],
    ]
}
