import BridgeStore
import Foundation

extension SQLiteStore {
    public func startUpstreamLogin(_ login: UpstreamLoginRecord, broker: BrokerSessionRecord?) async throws {
        try await transaction("upstream login") { tx in
            if let broker {
                try tx.query(
                    """
                    INSERT INTO broker_sessions (digest, upstream_id, client_id, redirect_uri, code_challenge, created_at,
                        expires_at, user_id, completed_at, redeemed_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(broker.digest.hex), .text(broker.upstreamID), .text(broker.clientID),
                        .text(broker.redirectURI), .text(broker.codeChallenge), .millis(broker.createdAt),
                        .millis(broker.expiresAt), .optionalText(broker.userID), .millis(broker.completedAt),
                        .millis(broker.redeemedAt),
                    ])
            }
            try tx.query(
                """
                INSERT INTO upstream_logins (state_digest, upstream_id, nonce_digest, code_verifier, interaction_id,
                    browser_digest, broker_session_id, created_at, expires_at, used_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(login.stateDigest.hex), .text(login.upstreamID), .text(login.nonceDigest.hex),
                    .text(login.codeVerifier), .optionalText(login.interactionID),
                    .optionalText(login.browserDigest?.hex), .optionalText(login.brokerSessionID),
                    .millis(login.createdAt), .millis(login.expiresAt), .millis(login.usedAt),
                ])
        }
    }

    public func takeUpstreamLogin(state: TokenDigest, at now: Date) async throws -> UpstreamLoginTaking {
        try await transaction("upstream login") { tx in
            guard let row = try tx.query("SELECT * FROM upstream_logins WHERE state_digest = ?", [.text(state.hex)]).first
            else { return .unknown }
            var login = try row.upstreamLogin()
            if login.usedAt != nil { return .replayed }
            guard login.expiresAt > now else { return .expired }
            login.usedAt = now
            try tx.query("UPDATE upstream_logins SET used_at = ? WHERE state_digest = ?", [.millis(now), .text(state.hex)])
            let broker = try login.brokerSessionID.flatMap {
                try tx.query("SELECT * FROM broker_sessions WHERE digest = ?", [.text(TokenDigest(of: $0).hex)]).first
            }.map({ try $0.brokerSession() })
            return .taken(login, broker: broker)
        }
    }

    public func signInUpstream(_ identity: UpstreamIdentity, end: UpstreamSignInEnd, at now: Date) async throws
        -> UpstreamSignIn
    {
        defer { noteChange() }
        return try await transaction("upstream identity \(identity.upstreamID)") { tx in
            let linked = try tx.query(
                """
                SELECT u.* FROM linked_identities l JOIN users u ON u.id = l.user_id
                WHERE l.upstream_id = ? AND l.subject = ?
                """, [.text(identity.upstreamID), .text(identity.subject)]
            ).first.map { try Self.userWithClaims($0) }
            var emailMatches: [UserRecord] = []
            if linked == nil, let email = identity.verifiedEmail {
                emailMatches = try tx.query("SELECT * FROM users WHERE lower(email) = lower(?) LIMIT 2", [.text(email)])
                    .map { try Self.userWithClaims($0) }
            }
            let (user, how) = UpstreamSignIn.account(linked: linked, emailMatches: emailMatches, newUser: identity.newUser)
            if how == .created {
                try tx.query(
                    """
                    INSERT INTO users (id, sign_in_name, friendly_name, password_hash, email, phone_number)
                    VALUES (?, ?, ?, NULL, ?, ?)
                    """,
                    [
                        .text(user.id), .text(user.signInName), .optionalText(user.friendlyName),
                        .optionalText(user.email), .optionalText(user.phoneNumber),
                    ])
            }
            if how != .linked {
                try tx.query(
                    "INSERT INTO linked_identities (upstream_id, subject, user_id, linked_at) VALUES (?, ?, ?, ?)",
                    [.text(identity.upstreamID), .text(identity.subject), .text(user.id), .millis(now)])
            }
            var ended = true
            switch end {
            case .browserSession(let digest, let expiresAt):
                try Self.insertSession(
                    SessionRecord(digest: digest, userID: user.id, createdAt: now, expiresAt: expiresAt), in: tx)
            case .brokerSession(let digest, let completion):
                try tx.query(
                    """
                    UPDATE broker_sessions SET user_id = ?, completed_at = ?, digest = ?
                    WHERE digest = ? AND completed_at IS NULL AND redeemed_at IS NULL AND failure IS NULL
                        AND expires_at > ?
                    """, [.text(user.id), .millis(now), .text(completion.hex), .text(digest.hex), .millis(now)])
                ended = tx.changes() == 1
            }
            return UpstreamSignIn(user: user, how: how, ended: ended)
        }
    }

    public func redeemBrokerSession(_ claim: BrokerSessionClaim, at now: Date) async throws -> BrokerSessionRedemption {
        let digest = claim.session
        return try await transaction("grant \(claim.access.grantID)") { tx in
            guard let row = try tx.query("SELECT * FROM broker_sessions WHERE digest = ?", [.text(digest.hex)]).first
            else { return .unknown }
            var session = try row.brokerSession()
            if session.redeemedAt != nil { return .replayed }
            guard session.expiresAt > now else { return .expired }
            let burn = { _ = try tx.query("UPDATE broker_sessions SET redeemed_at = ? WHERE digest = ?", [.millis(now), .text(digest.hex)]) }
            guard session.codeChallenge == claim.codeChallenge else {
                try burn()
                return .wrongVerifier
            }
            if let failure = session.failure {
                try burn()
                return .failed(failure)
            }
            guard let userID = session.userID,
                let user = try tx.query("SELECT * FROM users WHERE id = ?", [.text(userID)]).first
            else { return .pending }
            try burn()
            guard claim.matches(session) else { return .misdirected }
            let grant = claim.grant(userID: userID, at: now)
            try Self.insertGrant(grant, in: tx)
            try Self.insertAccessTokenNamingIt(claim.access, in: tx)
            session.redeemedAt = now
            return .redeemed(session, try Self.userWithClaims(user), grant)
        }
    }

    public func failBrokerSession(_ digest: TokenDigest, failure: String, at now: Date) async throws -> Bool {
        try await transaction("broker session failure") { tx in
            try tx.query(
                """
                UPDATE broker_sessions SET failure = ? WHERE digest = ? AND user_id IS NULL AND redeemed_at IS NULL
                    AND failure IS NULL AND expires_at > ?
                """, [.text(failure), .text(digest.hex), .millis(now)])
            return tx.changes() == 1
        }
    }

    public func linkedIdentities(userID: String) async throws -> [LinkedIdentityRecord] {
        try await read(
            "SELECT * FROM linked_identities WHERE user_id = ? ORDER BY upstream_id, subject", [.text(userID)]
        ).map {
            LinkedIdentityRecord(
                upstreamID: try $0.text("upstream_id"), subject: try $0.text("subject"), userID: try $0.text("user_id"),
                linkedAt: try $0.date("linked_at"))
        }
    }
}
