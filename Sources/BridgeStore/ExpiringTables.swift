/// The tables whose rows end at a time, and the column that says when: what `Store.purgeExpired` deletes, in every
/// store, so that a table a migration adds is listed once for all of them. Refresh tokens without an expiry live as
/// long as their grant (`expires_at < cutoff` is never true for a NULL).
public enum ExpiringTables {
    public static let all: [(table: String, endsAt: String)] = [
        ("access_tokens", "expires_at"), ("authorization_codes", "expires_at"),
        ("sessions", "expires_at"), ("pending_authorizations", "expires_at"), ("app_to_app_requests", "expires_at"),
        ("session_exchange_codes", "expires_at"), ("upstream_logins", "expires_at"), ("broker_sessions", "expires_at"),
        ("sign_in_failures", "failed_at"), ("refresh_tokens", "expires_at"), ("dpop_proofs", "expires_at"),
        ("pushed_authorization_requests", "expires_at"), ("auth_sessions", "expires_at"),
        ("device_sessions", "expires_at"),
    ]
}
