import BridgeStore
import Foundation
import PostgresNIO

extension PostgresStore {
    public func issueSessionCode(_ code: SessionExchangeCodeRecord) async throws {
        try await rows(
            Subject("session exchange code"),
            """
            INSERT INTO session_exchange_codes (digest, user_id, client_id, redirect_uri, issued_at, expires_at, used_at)
            VALUES (\(code.digest.hex), \(code.userID), \(code.clientID), \(code.redirectURI),
                \(Milliseconds.from(code.issuedAt)), \(Milliseconds.from(code.expiresAt)), \(Milliseconds.from(code.usedAt)))
            """)
    }

    /// One statement: a CTE reads the row as the snapshot saw it, a conditional UPDATE … RETURNING takes the code
    /// (only one of several concurrent statements can: the row lock makes the losers re-check `used_at IS NULL`),
    /// and the session is inserted from the taken row, so nothing is created unless this call won.
    public func openSessionCode(
        _ digest: TokenDigest, session: TokenDigest, sessionExpiresAt: Date, at now: Date
    ) async throws -> SessionCodeOpening {
        let nowMS = Milliseconds.from(now)
        let row = try await rows(
            Subject("session exchange code"),
            """
            WITH c AS (SELECT * FROM session_exchange_codes WHERE digest = \(digest.hex)),
            won AS (
                UPDATE session_exchange_codes SET used_at = \(nowMS)
                WHERE digest = \(digest.hex) AND used_at IS NULL AND expires_at > \(nowMS)
                RETURNING user_id
            ),
            s AS (
                INSERT INTO sessions (digest, user_id, created_at, expires_at)
                SELECT \(session.hex), user_id, \(nowMS), \(Milliseconds.from(sessionExpiresAt)) FROM won
                RETURNING digest
            )
            SELECT c.*, (SELECT count(*) FROM s) AS won FROM c
            """
        ).first
        guard let row else { return .unknown }
        var code = SessionExchangeCodeRecord(
            digest: digest, userID: try row.text("user_id"), clientID: try row.text("client_id"),
            redirectURI: try row.text("redirect_uri"), issuedAt: try row.date("issued_at"),
            expiresAt: try row.date("expires_at"), usedAt: try row.optionalDate("used_at"))
        if try row.int("won") == 1 {
            code.usedAt = now
            return .opened(code)
        }
        if code.usedAt != nil { return .replayed }
        guard code.expiresAt > now else { return .expired }
        return .replayed  // a concurrent opening won between the snapshot and the UPDATE
    }
}
