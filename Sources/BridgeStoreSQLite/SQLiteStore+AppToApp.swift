import BridgeStore
import Foundation

/// The app-to-app steps, each one transaction on the writer connection.
extension SQLiteStore {
    public func parkAppToApp(_ record: AppToAppRequestRecord) async throws {
        try await transaction("app-to-app request") { tx in
            try tx.query(
                """
                INSERT INTO app_to_app_requests (reference_digest, interaction_digest, client_id, payload, created_at,
                    expires_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(record.referenceDigest.hex), .text(record.interactionDigest.hex), .text(record.clientID),
                    .text(record.payload), .millis(record.createdAt), .millis(record.expiresAt),
                ])
        }
    }

    public func undecidedAppToApp(_ reference: TokenDigest, at now: Date) async throws -> AppToAppRequestRecord? {
        try await read(
            """
            SELECT * FROM app_to_app_requests
            WHERE reference_digest = ? AND decided_at IS NULL AND expires_at > ?
            """,
            [.text(reference.hex), .millis(now)]
        ).first.map({ try $0.appToAppRequest() })
    }

    public func decideAppToApp(
        _ reference: TokenDigest, decision: AppToAppDecision, clientIDs: [String], at now: Date
    ) async throws -> AppToAppDecisionOutcome {
        try await transaction("app-to-app decision") { tx in
            let found = try Self.decidableAppToApp(reference, clientIDs: clientIDs, at: now, in: tx)
            guard case .decided(var record) = found else { return found }
            record.decidedAt = now
            if case .approve(let userID, let resume) = decision {
                record.userID = userID
                record.resumeDigest = resume
            }
            try tx.query(
                "UPDATE app_to_app_requests SET decided_at = ?, user_id = ?, resume_digest = ? WHERE reference_digest = ?",
                [.millis(now), .optionalText(record.userID), .optionalText(record.resumeDigest?.hex), .text(reference.hex)])
            return .decided(record)
        }
    }

    public func approveSimpleLogin(
        _ reference: TokenDigest, userID: String, clientIDs: [String], issue: CodeIssue, at now: Date
    ) async throws -> SimpleLoginApproval {
        try await transaction("app-to-app approval") { tx in
            let found = try Self.decidableAppToApp(reference, clientIDs: clientIDs, at: now, in: tx)
            guard case .decided(var record) = found else {
                switch found {
                case .alreadyDecided: return .alreadyDecided
                case .expired: return .expired
                case .notAllowed: return .notAllowed
                case .unknown, .decided: return .unknown
                }
            }
            guard
                let pending = try tx.query(
                    "SELECT * FROM pending_authorizations WHERE digest = ? AND expires_at > ?",
                    [.text(record.interactionDigest.hex), .millis(now)]
                ).first.map({ try $0.pendingAuthorization() })
            else { return .expired }
            guard let user = try tx.query("SELECT * FROM users WHERE id = ?", [.text(userID)]).first.map({ try Self.user($0) })
            else { return .unknown }
            let previous = try tx.query(
                "SELECT scope, granted_at FROM consents WHERE user_id = ? AND client_id = ?",
                [.text(userID), .text(pending.clientID)]
            ).first.map {
                ConsentRecord(userID: userID, clientID: pending.clientID, scope: try $0.text("scope"), grantedAt: try $0.date("granted_at"))
            }
            record.decidedAt = now
            record.userID = userID
            try tx.query(
                "UPDATE app_to_app_requests SET decided_at = ?, user_id = ? WHERE reference_digest = ?",
                [.millis(now), .text(userID), .text(reference.hex)])
            try tx.query("DELETE FROM pending_authorizations WHERE digest = ?", [.text(pending.digest.hex)])
            try Self.upsertConsent(
                AuthorizationDecision.consentAfterAllowing(
                    pending.terms, previous: previous, userID: userID, clientID: pending.clientID, at: now),
                in: tx)
            let (grant, code) = AuthorizationDecision.issued(pending, user: user, issue: issue, authTime: now, at: now)
            try Self.insertGrant(grant, in: tx)
            try Self.insertCode(code, in: tx)
            return .issued(record, pending, grant, code)
        }
    }

    /// The request under `reference` as `.decided` when this transaction may decide it now for an app that approves
    /// for `clientIDs` (nothing written yet), else why it may not.
    static func decidableAppToApp(
        _ reference: TokenDigest, clientIDs: [String], at now: Date, in tx: Transaction
    ) throws -> AppToAppDecisionOutcome {
        guard
            let record = try tx.query(
                "SELECT * FROM app_to_app_requests WHERE reference_digest = ?", [.text(reference.hex)]
            ).first.map({ try $0.appToAppRequest() })
        else { return .unknown }
        if record.decidedAt != nil { return .alreadyDecided }
        if record.expiresAt <= now { return .expired }
        guard clientIDs.contains(record.clientID) else { return .notAllowed }
        return .decided(record)
    }

    public func resumeAppToApp(
        _ resume: TokenDigest, browser: TokenDigest?, session: TokenDigest, sessionExpiresAt: Date, at now: Date
    ) async throws -> AppToAppResumeOutcome {
        try await transaction("app-to-app resume") { tx in
            guard
                let row = try tx.query(
                    """
                    SELECT a.*, p.browser_digest AS p_browser_digest FROM app_to_app_requests a
                        LEFT JOIN pending_authorizations p ON p.digest = a.interaction_digest AND p.expires_at > ?
                    WHERE a.resume_digest = ?
                    """,
                    [.millis(now), .text(resume.hex)]
                ).first
            else { return .unknown }
            var record = try row.appToAppRequest()
            if record.resumedAt != nil { return .alreadyUsed }
            guard let userID = record.userID, record.expiresAt > now,
                let parkedBy = try row.optionalText("p_browser_digest")
            else { return .expired }
            guard parkedBy == browser?.hex else { return .otherBrowser }
            record.resumedAt = now
            try tx.query(
                "UPDATE app_to_app_requests SET resumed_at = ? WHERE reference_digest = ?",
                [.millis(now), .text(record.referenceDigest.hex)])
            try Self.insertSession(
                SessionRecord(digest: session, userID: userID, createdAt: now, expiresAt: sessionExpiresAt), in: tx)
            return .resumed(record)
        }
    }
}
