import BridgeStore
import Foundation

// MARK: Users

extension SQLiteStore {
    public func deleteUser(id: String) async throws -> Bool {
        defer { noteChange() }
        return try await transaction("user deletion") { tx in
            try tx.query("DELETE FROM consents WHERE user_id = ?", [.text(id)])
            try tx.query("DELETE FROM users WHERE id = ?", [.text(id)])
            return tx.changes() == 1
        }
    }
}

// MARK: Pending authorization requests

extension SQLiteStore {
    public func savePendingAuthorization(_ record: PendingAuthorizationRecord) async throws {
        try await transaction("pending authorization") { tx in try Self.insertPending(record, in: tx) }
    }

    static func insertPending(_ record: PendingAuthorizationRecord, in tx: Transaction) throws {
        let terms = record.terms
        try tx.query(
            """
            INSERT INTO pending_authorizations
                (digest, client_id, browser_digest, csrf_digest, payload, created_at, expires_at, redirect_uri, scope,
                 code_challenge, code_challenge_method, session_context, consent, sign_in_after, max_age_seconds,
                 nonce, dpop_jkt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(record.digest.hex), .text(record.clientID), .text(record.browserDigest.hex),
                .text(record.csrfDigest.hex), .text(record.payload), .millis(record.createdAt),
                .millis(record.expiresAt), .text(terms.redirectURI), .text(terms.scope),
                .optionalText(terms.codeChallenge), .optionalText(terms.codeChallengeMethod),
                .optionalText(terms.sessionContext), .text(terms.consent.rawValue), .millis(terms.signInAfter),
                terms.maxAgeSeconds.map { .integer($0) } ?? .null, .optionalText(terms.nonce),
                .optionalText(terms.dpopKeyThumbprint),
            ])
    }

    public func pendingAuthorization(_ digest: TokenDigest, at now: Date) async throws -> PendingAuthorizationRecord? {
        try await read(
            "SELECT * FROM pending_authorizations WHERE digest = ? AND expires_at > ?", [.text(digest.hex), .millis(now)]
        ).first.map({ try $0.pendingAuthorization() })
    }

    public func takePendingAuthorization(_ digest: TokenDigest, at now: Date) async throws -> PendingAuthorizationRecord? {
        try await transaction("pending authorization") { tx in
            // DELETE … RETURNING: the read and the removal are one statement, so two submissions cannot both win.
            try tx.query(
                "DELETE FROM pending_authorizations WHERE digest = ? AND expires_at > ? RETURNING *",
                [.text(digest.hex), .millis(now)]
            ).first.map({ try $0.pendingAuthorization() })
        }
    }
}

// MARK: Consent

extension SQLiteStore {
    public func saveConsent(_ consent: ConsentRecord) async throws {
        try await transaction("consent") { tx in try Self.upsertConsent(consent, in: tx) }
    }

    static func upsertConsent(_ consent: ConsentRecord, in tx: Transaction) throws {
        try tx.query(
            """
            INSERT INTO consents (user_id, client_id, scope, granted_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (user_id, client_id) DO UPDATE SET scope = excluded.scope, granted_at = excluded.granted_at
            """,
            [.text(consent.userID), .text(consent.clientID), .text(consent.scope), .millis(consent.grantedAt)])
    }

    public func consent(userID: String, clientID: String) async throws -> ConsentRecord? {
        try await read(
            "SELECT * FROM consents WHERE user_id = ? AND client_id = ?", [.text(userID), .text(clientID)]
        ).first.map { row in
            ConsentRecord(
                userID: userID, clientID: clientID, scope: try row.text("scope"), grantedAt: try row.date("granted_at"))
        }
    }
}

// MARK: Sign-in throttling

extension SQLiteStore {
    public func recordSignInFailure(keys: [String], at now: Date) async throws {
        try await transaction("sign-in failure") { tx in
            for key in keys {
                try tx.query("INSERT INTO sign_in_failures (key, failed_at) VALUES (?, ?)", [.text(key), .millis(now)])
            }
        }
    }

    public func signInFailureCounts(keys: [String], since: Date) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for key in keys {
            let row = try await read(
                "SELECT count(*) AS n FROM sign_in_failures WHERE key = ? AND failed_at >= ?",
                [.text(key), .millis(since)]
            ).first
            counts[key] = Int(row?.column("n")?.integer ?? 0)
        }
        return counts
    }

    public func clearSignInFailures(key: String) async throws {
        try await transaction("sign-in failures") { tx in
            try tx.query("DELETE FROM sign_in_failures WHERE key = ?", [.text(key)])
        }
    }
}
