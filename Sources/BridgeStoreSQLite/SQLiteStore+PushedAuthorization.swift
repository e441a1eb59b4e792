import BridgeStore
import Foundation

extension SQLiteStore {
    public func pushAuthorizationRequest(_ request: PushedAuthorizationRecord) async throws {
        try await transaction("pushed authorization request") { tx in
            try tx.query(
                """
                INSERT INTO pushed_authorization_requests (digest, client_id, parameters, pushed_at, expires_at)
                VALUES (?, ?, ?, ?, ?)
                """,
                [
                    .text(request.digest.hex), .text(request.clientID), .text(request.parameters),
                    .millis(request.pushedAt), .millis(request.expiresAt),
                ])
        }
    }

    public func takePushedAuthorizationRequest(
        _ digest: TokenDigest, clientID: String, at now: Date
    ) async throws -> PushedAuthorizationTaking {
        try await transaction("pushed authorization request") { tx in
            guard
                let row = try tx.query(
                    "SELECT * FROM pushed_authorization_requests WHERE digest = ? AND client_id = ?",
                    [.text(digest.hex), .text(clientID)]
                ).first
            else { return .unknown }
            if try row.optionalDate("used_at") != nil { return .used }
            let request = PushedAuthorizationRecord(
                digest: digest, clientID: clientID, parameters: try row.text("parameters"),
                pushedAt: try row.date("pushed_at"), expiresAt: try row.date("expires_at"))
            guard request.expiresAt > now else { return .expired }
            try tx.query(
                "UPDATE pushed_authorization_requests SET used_at = ? WHERE digest = ?", [.millis(now), .text(digest.hex)])
            return .taken(request)
        }
    }
}
