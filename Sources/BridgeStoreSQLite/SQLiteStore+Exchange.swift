import BridgeStore
import Foundation

extension SQLiteStore {
    public func issueSessionCode(_ code: SessionExchangeCodeRecord) async throws {
        try await transaction("session exchange code") { tx in
            try tx.query(
                """
                INSERT INTO session_exchange_codes (digest, user_id, client_id, redirect_uri, issued_at, expires_at, used_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(code.digest.hex), .text(code.userID), .text(code.clientID), .text(code.redirectURI),
                    .millis(code.issuedAt), .millis(code.expiresAt), .millis(code.usedAt),
                ])
        }
    }

    public func openSessionCode(
        _ digest: TokenDigest, session: TokenDigest, sessionExpiresAt: Date, at now: Date
    ) async throws -> SessionCodeOpening {
        try await transaction("session exchange code") { tx in
            guard
                let row = try tx.query("SELECT * FROM session_exchange_codes WHERE digest = ?", [.text(digest.hex)]).first
            else { return .unknown }
            var code = SessionExchangeCodeRecord(
                digest: digest, userID: try row.text("user_id"), clientID: try row.text("client_id"),
                redirectURI: try row.text("redirect_uri"), issuedAt: try row.date("issued_at"),
                expiresAt: try row.date("expires_at"), usedAt: try row.optionalDate("used_at"))
            if code.usedAt != nil { return .replayed }
            guard code.expiresAt > now else { return .expired }
            code.usedAt = now
            try tx.query(
                "UPDATE session_exchange_codes SET used_at = ? WHERE digest = ?", [.millis(now), .text(digest.hex)])
            try Self.insertSession(
                SessionRecord(digest: session, userID: code.userID, createdAt: now, expiresAt: sessionExpiresAt), in: tx)
            return .opened(code)
        }
    }
}
