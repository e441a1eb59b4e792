import BridgeStore
import Foundation
import PostgresNIO

/// The app-to-app steps, one statement each: the conditional UPDATE decides who wins (as code redemption does), and
/// the row as the statement's snapshot saw it tells a loser why.
extension PostgresStore {
    public func parkAppToApp(_ record: AppToAppRequestRecord) async throws {
        try await rows(
            Subject("app-to-app request"),
            """
            INSERT INTO app_to_app_requests (reference_digest, interaction_digest, client_id, payload, created_at,
                expires_at)
            VALUES (\(record.referenceDigest.hex), \(record.interactionDigest.hex), \(record.clientID), \(record.payload),
                \(Milliseconds.from(record.createdAt)), \(Milliseconds.from(record.expiresAt)))
            """)
    }

    public func undecidedAppToApp(_ reference: TokenDigest, at now: Date) async throws -> AppToAppRequestRecord? {
        try await rows(
            Subject("app-to-app request"),
            """
            SELECT * FROM app_to_app_requests
            WHERE reference_digest = \(reference.hex) AND decided_at IS NULL AND expires_at > \(Milliseconds.from(now))
            """
        ).first.map({ try $0.appToAppRequest() })
    }

    public func decideAppToApp(
        _ reference: TokenDigest, decision: AppToAppDecision, clientIDs: [String], at now: Date
    ) async throws -> AppToAppDecisionOutcome {
        let nowMS = Milliseconds.from(now)
        var userID: String?
        var resume: String?
        if case .approve(let user, let digest) = decision { (userID, resume) = (user, digest.hex) }
        let row = try await rows(
            Subject("app-to-app decision"),
            """
            WITH a AS (SELECT * FROM app_to_app_requests WHERE reference_digest = \(reference.hex)),
            won AS (
                UPDATE app_to_app_requests SET decided_at = \(nowMS), user_id = \(userID)::text,
                    resume_digest = \(resume)::text
                WHERE reference_digest = \(reference.hex) AND decided_at IS NULL AND expires_at > \(nowMS)
                    AND client_id = ANY(\(clientIDs)::text[])
                RETURNING reference_digest
            )
            SELECT a.*, (SELECT count(*) FROM won) AS won FROM a
            """
        ).first
        guard let row else { return .unknown }
        var record = try row.appToAppRequest()
        if try row.int("won") == 1 {
            record.decidedAt = now
            record.userID = userID
            record.resumeDigest = resume.flatMap(TokenDigest.init(hex:))
            return .decided(record)
        }
        if record.decidedAt != nil { return .alreadyDecided }
        if record.expiresAt <= now { return .expired }
        if !clientIDs.contains(record.clientID) { return .notAllowed }
        return .alreadyDecided  // a concurrent decision won between the snapshot and the UPDATE
    }

    /// `BEGIN`, the rows locked (`FOR UPDATE`, so a concurrent decision waits and then finds the request decided),
    /// the consent rule of `AuthorizationDecision` in Swift, the writes, `COMMIT`.
    public func approveSimpleLogin(
        _ reference: TokenDigest, userID: String, clientIDs: [String], issue: CodeIssue, at now: Date
    ) async throws -> SimpleLoginApproval {
        defer { noteChange() }
        let nowMS = Milliseconds.from(now)
        return try await inTransaction(Subject("app-to-app approval", tables: Self.issuedTables)) { tx, logger in
            func first(_ query: PostgresQuery) async throws -> PostgresRandomAccessRow? {
                try await tx.query(query, logger: logger).collect().first?.makeRandomAccess()
            }
            guard
                var record = try await first(
                    "SELECT * FROM app_to_app_requests WHERE reference_digest = \(reference.hex) FOR UPDATE"
                ).map({ try $0.appToAppRequest() })
            else { return .unknown }
            if record.decidedAt != nil { return .alreadyDecided }
            if record.expiresAt <= now { return .expired }
            guard clientIDs.contains(record.clientID) else { return .notAllowed }
            guard let user = try await first("SELECT * FROM users WHERE id = \(userID)").map(Self.user) else {
                return .unknown
            }
            guard
                let pending = try await first(
                    """
                    DELETE FROM pending_authorizations
                    WHERE digest = \(record.interactionDigest.hex) AND expires_at > \(nowMS) RETURNING *
                    """
                ).map({ try $0.pendingAuthorization() })
            else { return .expired }
            let previous = try await first(
                "SELECT scope, granted_at FROM consents WHERE user_id = \(userID) AND client_id = \(pending.clientID)"
            ).map {
                ConsentRecord(userID: userID, clientID: pending.clientID, scope: try $0.text("scope"), grantedAt: try $0.date("granted_at"))
            }
            record.decidedAt = now
            record.userID = userID
            try await tx.query(
                """
                UPDATE app_to_app_requests SET decided_at = \(nowMS), user_id = \(userID)
                WHERE reference_digest = \(reference.hex)
                """, logger: logger)
            try await tx.query(
                Self.upsertConsent(
                    AuthorizationDecision.consentAfterAllowing(
                        pending.terms, previous: previous, userID: userID, clientID: pending.clientID, at: now)),
                logger: logger)
            let (grant, code) = AuthorizationDecision.issued(pending, user: user, issue: issue, authTime: now, at: now)
            try await tx.query(Self.insertGrant(grant), logger: logger)
            try await tx.query(Self.insertCode(code), logger: logger)
            return .issued(record, pending, grant, code)
        }
    }

    public func resumeAppToApp(
        _ resume: TokenDigest, browser: TokenDigest?, session: TokenDigest, sessionExpiresAt: Date, at now: Date
    ) async throws -> AppToAppResumeOutcome {
        let nowMS = Milliseconds.from(now)
        let row = try await rows(
            Subject("app-to-app resume"),
            """
            WITH a AS (
                SELECT a.*, p.browser_digest AS p_browser_digest FROM app_to_app_requests a
                    LEFT JOIN pending_authorizations p ON p.digest = a.interaction_digest AND p.expires_at > \(nowMS)
                WHERE a.resume_digest = \(resume.hex)
            ),
            won AS (
                UPDATE app_to_app_requests SET resumed_at = \(nowMS)
                WHERE resume_digest = \(resume.hex) AND resumed_at IS NULL AND expires_at > \(nowMS)
                    AND user_id IS NOT NULL
                    AND EXISTS (SELECT 1 FROM a WHERE p_browser_digest = \(browser?.hex)::text)
                RETURNING user_id
            ),
            s AS (
                INSERT INTO sessions (digest, user_id, created_at, expires_at)
                SELECT \(session.hex), user_id, \(nowMS), \(Milliseconds.from(sessionExpiresAt)) FROM won
                RETURNING digest
            )
            SELECT a.*, (SELECT count(*) FROM s) AS won FROM a
            """
        ).first
        guard let row else { return .unknown }
        var record = try row.appToAppRequest()
        if try row.int("won") == 1 {
            record.resumedAt = now
            return .resumed(record)
        }
        if record.resumedAt != nil { return .alreadyUsed }
        let parkedBy = try row.optionalText("p_browser_digest")
        guard record.userID != nil, record.expiresAt > now, let parkedBy else { return .expired }
        if parkedBy != browser?.hex { return .otherBrowser }
        return .alreadyUsed  // a concurrent resume won between the snapshot and the UPDATE
    }
}
