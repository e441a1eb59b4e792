import BridgeStore
import Foundation

/// The authorization challenge endpoint's auth sessions, one transaction each on the writer connection.
extension SQLiteStore {
    public func saveAuthSession(_ record: AuthSessionRecord) async throws {
        try await transaction("auth session") { tx in try Self.insertAuthSession(record, in: tx) }
    }

    static func insertAuthSession(_ record: AuthSessionRecord, in tx: Transaction) throws {
        try tx.query(
            """
            INSERT INTO auth_sessions (digest, client_id, interaction_digest, browser_digest, session_digest,
                app_to_app_reference, sign_in_name, dpop_jkt, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(record.digest.hex), .text(record.clientID), .text(record.interaction.hex),
                .text(record.browser.hex), .optionalText(record.session?.hex),
                .optionalText(record.appToAppReference?.hex), .optionalText(record.signInName),
                .optionalText(record.dpopKeyThumbprint),
                .millis(record.createdAt), .millis(record.expiresAt),
            ])
    }

    public func takeAuthSession(
        _ digest: TokenDigest, clientID: String, dpopKeyThumbprint: String?, at now: Date
    ) async throws -> AuthSessionTaking {
        try await transaction("auth session") { tx in
            try Self.takeAuthSession(digest, clientID: clientID, dpopKeyThumbprint: dpopKeyThumbprint, at: now, in: tx)
        }
    }

    static func takeAuthSession(
        _ digest: TokenDigest, clientID: String, dpopKeyThumbprint: String?, at now: Date, in tx: Transaction
    ) throws -> AuthSessionTaking {
        guard let row = try tx.query("SELECT * FROM auth_sessions WHERE digest = ?", [.text(digest.hex)]).first
        else { return .unknown }
        let record = try row.authSession()
        if let refusal = record.refusal(clientID: clientID, dpopKeyThumbprint: dpopKeyThumbprint, at: now) {
            if refusal == .expired { try tx.query("DELETE FROM auth_sessions WHERE digest = ?", [.text(digest.hex)]) }
            return refusal
        }
        try tx.query("DELETE FROM auth_sessions WHERE digest = ?", [.text(digest.hex)])
        return .taken(record)
    }

    public func authSession(
        _ digest: TokenDigest, clientID: String, dpopKeyThumbprint: String?, at now: Date
    ) async throws -> AuthSessionTaking {
        guard let row = try await read("SELECT * FROM auth_sessions WHERE digest = ?", [.text(digest.hex)]).first
        else { return .unknown }
        let record = try row.authSession()
        return record.refusal(clientID: clientID, dpopKeyThumbprint: dpopKeyThumbprint, at: now) ?? .taken(record)
    }

    public func advanceAuthSession(
        _ presented: TokenDigest?, to next: AuthSessionRecord, issue: CodeIssue, at now: Date
    ) async throws -> AuthSessionAdvance {
        try await transaction("auth session step") { tx in
            if let presented {
                let taking = try Self.takeAuthSession(
                    presented, clientID: next.clientID, dpopKeyThumbprint: next.dpopKeyThumbprint, at: now, in: tx)
                guard case .taken = taking else { return .refused(taking) }
            }
            let continuation = try Self.continueAuthorization(
                next.interaction, browser: next.browser, session: next.session, consent: false, issue: issue, at: now,
                in: tx)
            if AuthSessionAdvance.savesNext(continuation) { try Self.insertAuthSession(next, in: tx) }
            return .continued(continuation)
        }
    }

    public func authSessionClient(_ digest: TokenDigest) async throws -> String? {
        try await read("SELECT client_id FROM auth_sessions WHERE digest = ?", [.text(digest.hex)]).first?.text("client_id")
    }

    public func takeAppToAppApproval(
        _ reference: TokenDigest, interaction: TokenDigest, session: TokenDigest, sessionExpiresAt: Date, at now: Date
    ) async throws -> AppToAppApprovalTaking {
        try await transaction("app-to-app approval") { tx in
            guard
                let record = try tx.query(
                    "SELECT * FROM app_to_app_requests WHERE reference_digest = ? AND interaction_digest = ?",
                    [.text(reference.hex), .text(interaction.hex)]
                ).first.map({ try $0.appToAppRequest() }),
                record.resumedAt == nil, record.expiresAt > now
            else { return .gone }
            if record.decidedAt == nil { return .undecided }
            guard let userID = record.userID else { return .denied }
            try tx.query(
                "UPDATE app_to_app_requests SET resumed_at = ? WHERE reference_digest = ?",
                [.millis(now), .text(reference.hex)])
            try Self.insertSession(
                SessionRecord(digest: session, userID: userID, createdAt: now, expiresAt: sessionExpiresAt), in: tx)
            return .approved(userID: userID)
        }
    }
}
