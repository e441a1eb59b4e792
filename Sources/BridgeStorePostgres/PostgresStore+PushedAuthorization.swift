import BridgeStore
import Foundation
import PostgresNIO

extension PostgresStore {
    public func pushAuthorizationRequest(_ request: PushedAuthorizationRecord) async throws {
        try await rows(
            Subject("pushed authorization request"),
            """
            INSERT INTO pushed_authorization_requests (digest, client_id, parameters, pushed_at, expires_at)
            VALUES (\(request.digest.hex), \(request.clientID), \(request.parameters),
                \(Milliseconds.from(request.pushedAt)), \(Milliseconds.from(request.expiresAt)))
            """)
    }

    /// One statement, as `openSessionCode`: the CTE's snapshot says what the row was, the conditional UPDATE takes
    /// it, and only one of several racing statements can (the losers re-check `used_at IS NULL` after the winner).
    public func takePushedAuthorizationRequest(
        _ digest: TokenDigest, clientID: String, at now: Date
    ) async throws -> PushedAuthorizationTaking {
        let nowMS = Milliseconds.from(now)
        let row = try await rows(
            Subject("pushed authorization request"),
            """
            WITH r AS (SELECT * FROM pushed_authorization_requests WHERE digest = \(digest.hex) AND client_id = \(clientID)),
            won AS (
                UPDATE pushed_authorization_requests SET used_at = \(nowMS)
                WHERE digest = \(digest.hex) AND client_id = \(clientID) AND used_at IS NULL AND expires_at > \(nowMS)
                RETURNING digest
            )
            SELECT r.*, (SELECT count(*) FROM won) AS won FROM r
            """
        ).first
        guard let row else { return .unknown }
        let request = PushedAuthorizationRecord(
            digest: digest, clientID: clientID, parameters: try row.text("parameters"),
            pushedAt: try row.date("pushed_at"), expiresAt: try row.date("expires_at"))
        if try row.int("won") == 1 { return .taken(request) }
        if try row.optionalDate("used_at") != nil { return .used }
        guard request.expiresAt > now else { return .expired }
        return .used  // a concurrent request took it between the snapshot and the UPDATE
    }
}
