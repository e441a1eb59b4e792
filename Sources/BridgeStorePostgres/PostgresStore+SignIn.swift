import BridgeStore
import Foundation
import PostgresNIO

// MARK: Pending authorization requests

extension PostgresStore {
    public func savePendingAuthorization(_ record: PendingAuthorizationRecord) async throws {
        try await rows(Subject("pending authorization"), Self.insertPending(record))
    }

    static func insertPending(_ record: PendingAuthorizationRecord) -> PostgresQuery {
        let terms = record.terms
        return """
            INSERT INTO pending_authorizations
                (digest, client_id, browser_digest, csrf_digest, payload, created_at, expires_at, redirect_uri, scope,
                 code_challenge, code_challenge_method, session_context, consent, sign_in_after, max_age_seconds,
                 nonce, dpop_jkt)
            VALUES (\(record.digest.hex), \(record.clientID), \(record.browserDigest.hex), \(record.csrfDigest.hex),
                \(record.payload), \(Milliseconds.from(record.createdAt)), \(Milliseconds.from(record.expiresAt)),
                \(terms.redirectURI), \(terms.scope), \(terms.codeChallenge), \(terms.codeChallengeMethod),
                \(terms.sessionContext), \(terms.consent.rawValue), \(Milliseconds.from(terms.signInAfter)),
                \(terms.maxAgeSeconds.map { Int64($0) }), \(terms.nonce), \(terms.dpopKeyThumbprint))
            """
    }

    public func pendingAuthorization(_ digest: TokenDigest, at now: Date) async throws -> PendingAuthorizationRecord? {
        try await rows(
            Subject("pending authorization"),
            """
            SELECT * FROM pending_authorizations WHERE digest = \(digest.hex) AND expires_at > \(Milliseconds.from(now))
            """
        ).first.map({ try $0.pendingAuthorization() })
    }

    public func takePendingAuthorization(_ digest: TokenDigest, at now: Date) async throws -> PendingAuthorizationRecord? {
        // DELETE … RETURNING: of two concurrent takes, the second waits for the first's row lock, then finds the
        // row gone and returns nothing, so one request ends in at most one code.
        try await rows(
            Subject("pending authorization"),
            """
            DELETE FROM pending_authorizations
            WHERE digest = \(digest.hex) AND expires_at > \(Milliseconds.from(now)) RETURNING *
            """
        ).first.map({ try $0.pendingAuthorization() })
    }
}

// MARK: Consent

extension PostgresStore {
    public func saveConsent(_ consent: ConsentRecord) async throws {
        try await rows(Subject("consent"), Self.upsertConsent(consent))
    }

    static func upsertConsent(_ consent: ConsentRecord) -> PostgresQuery {
        """
        INSERT INTO consents (user_id, client_id, scope, granted_at)
        VALUES (\(consent.userID), \(consent.clientID), \(consent.scope), \(Milliseconds.from(consent.grantedAt)))
        ON CONFLICT (user_id, client_id) DO UPDATE SET scope = excluded.scope, granted_at = excluded.granted_at
        """
    }

    public func consent(userID: String, clientID: String) async throws -> ConsentRecord? {
        try await rows(
            Subject("consent"),
            "SELECT scope, granted_at FROM consents WHERE user_id = \(userID) AND client_id = \(clientID)"
        ).first.map { row in
            ConsentRecord(
                userID: userID, clientID: clientID, scope: try row.text("scope"), grantedAt: try row.date("granted_at"))
        }
    }
}

// MARK: Sign-in throttling

extension PostgresStore {
    public func recordSignInFailure(keys: [String], at now: Date) async throws {
        guard !keys.isEmpty else { return }
        try await rows(
            Subject("sign-in failure"),
            "INSERT INTO sign_in_failures (key, failed_at) SELECT unnest(\(keys)::text[]), \(Milliseconds.from(now))")
    }

    public func signInFailureCounts(keys: [String], since: Date) async throws -> [String: Int] {
        guard !keys.isEmpty else { return [:] }
        let rows = try await rows(
            Subject("sign-in failures"),
            """
            SELECT k.key, count(f.key) AS n FROM unnest(\(keys)::text[]) AS k (key)
            LEFT JOIN sign_in_failures f ON f.key = k.key AND f.failed_at >= \(Milliseconds.from(since))
            GROUP BY k.key
            """)
        var counts: [String: Int] = [:]
        for row in rows { counts[try row.text("key")] = try row.int("n") }
        return counts
    }

    public func clearSignInFailures(key: String) async throws {
        try await rows(Subject("sign-in failures"), "DELETE FROM sign_in_failures WHERE key = \(key)")
    }
}
