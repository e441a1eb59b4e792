import BridgeStore
import Foundation
import Logging
import PostgresNIO

/// The upstream sign-in and broker steps. Each is one transaction on one connection: the single-use ones lock
/// their row (`FOR UPDATE`), so of two instances taking the same `state` or broker session only one wins.
extension PostgresStore {
    public func startUpstreamLogin(_ login: UpstreamLoginRecord, broker: BrokerSessionRecord?) async throws {
        try await inTransaction(Subject("upstream login")) { tx, logger in
            if let broker {
                try await tx.query(
                    """
                    INSERT INTO broker_sessions (digest, upstream_id, client_id, redirect_uri, code_challenge, created_at,
                        expires_at, user_id, completed_at, redeemed_at)
                    VALUES (\(broker.digest.hex), \(broker.upstreamID), \(broker.clientID), \(broker.redirectURI),
                        \(broker.codeChallenge), \(Milliseconds.from(broker.createdAt)),
                        \(Milliseconds.from(broker.expiresAt)), \(broker.userID), \(Milliseconds.from(broker.completedAt)),
                        \(Milliseconds.from(broker.redeemedAt)))
                    """, logger: logger)
            }
            try await tx.query(
                """
                INSERT INTO upstream_logins (state_digest, upstream_id, nonce_digest, code_verifier, interaction_id,
                    browser_digest, broker_session_id, created_at, expires_at, used_at)
                VALUES (\(login.stateDigest.hex), \(login.upstreamID), \(login.nonceDigest.hex), \(login.codeVerifier),
                    \(login.interactionID), \(login.browserDigest?.hex), \(login.brokerSessionID),
                    \(Milliseconds.from(login.createdAt)), \(Milliseconds.from(login.expiresAt)),
                    \(Milliseconds.from(login.usedAt)))
                """, logger: logger)
        }
    }

    public func takeUpstreamLogin(state: TokenDigest, at now: Date) async throws -> UpstreamLoginTaking {
        try await inTransaction(Subject("upstream login")) { tx, logger in
            guard
                let row = try await tx.query(
                    "SELECT * FROM upstream_logins WHERE state_digest = \(state.hex) FOR UPDATE", logger: logger
                ).collect().first?.makeRandomAccess()
            else { return .unknown }
            var login = try row.upstreamLogin()
            if login.usedAt != nil { return .replayed }
            guard login.expiresAt > now else { return .expired }
            login.usedAt = now
            try await tx.query(
                "UPDATE upstream_logins SET used_at = \(Milliseconds.from(now)) WHERE state_digest = \(state.hex)",
                logger: logger)
            var broker: BrokerSessionRecord?
            if let id = login.brokerSessionID {
                broker = try await tx.query(
                    "SELECT * FROM broker_sessions WHERE digest = \(TokenDigest(of: id).hex)", logger: logger
                ).collect().first.map { try $0.makeRandomAccess().brokerSession() }
            }
            return .taken(login, broker: broker)
        }
    }

    public func signInUpstream(_ identity: UpstreamIdentity, end: UpstreamSignInEnd, at now: Date) async throws
        -> UpstreamSignIn
    {
        defer { noteChange() }
        let nowMS = Milliseconds.from(now)
        return try await inTransaction(Subject("upstream identity \(identity.upstreamID)")) { tx, logger in
            let linked = try await tx.query(
                """
                SELECT u.* FROM linked_identities l JOIN users u ON u.id = l.user_id
                WHERE l.upstream_id = \(identity.upstreamID) AND l.subject = \(identity.subject)
                """, logger: logger
            ).collect().first.map { try Self.user($0.makeRandomAccess()) }
            var emailMatches: [UserRecord] = []
            if linked == nil, let email = identity.verifiedEmail {
                emailMatches = try await tx.query(
                    "SELECT * FROM users WHERE lower(email) = lower(\(email)) LIMIT 2", logger: logger
                ).collect().map { try Self.user($0.makeRandomAccess()) }
            }
            let (user, how) = UpstreamSignIn.account(linked: linked, emailMatches: emailMatches, newUser: identity.newUser)
            if how == .created {
                try await tx.query(
                    """
                    INSERT INTO users (id, sign_in_name, friendly_name, password_hash, email, phone_number)
                    VALUES (\(user.id), \(user.signInName), \(user.friendlyName), NULL, \(user.email), \(user.phoneNumber))
                    """, logger: logger)
            }
            if how != .linked {
                try await tx.query(
                    """
                    INSERT INTO linked_identities (upstream_id, subject, user_id, linked_at)
                    VALUES (\(identity.upstreamID), \(identity.subject), \(user.id), \(nowMS))
                    """, logger: logger)
            }
            var ended = true
            switch end {
            case .browserSession(let digest, let expiresAt):
                try await tx.query(
                    """
                    INSERT INTO sessions (digest, user_id, created_at, expires_at)
                    VALUES (\(digest.hex), \(user.id), \(nowMS), \(Milliseconds.from(expiresAt)))
                    """, logger: logger)
            case .brokerSession(let digest, let completion):
                let updated = try await tx.query(
                    """
                    UPDATE broker_sessions SET user_id = \(user.id), completed_at = \(nowMS), digest = \(completion.hex)
                    WHERE digest = \(digest.hex) AND completed_at IS NULL AND redeemed_at IS NULL AND failure IS NULL
                        AND expires_at > \(nowMS)
                    RETURNING digest
                    """, logger: logger
                ).collect()
                ended = updated.count == 1
            }
            return UpstreamSignIn(user: user, how: how, ended: ended)
        }
    }

    public func redeemBrokerSession(_ claim: BrokerSessionClaim, at now: Date) async throws -> BrokerSessionRedemption {
        let (digest, nowMS) = (claim.session, Milliseconds.from(now))
        let subject = Subject(
            "grant \(claim.access.grantID)", tables: ["access_tokens": "access token \(claim.access.tokenID)"])
        return try await inTransaction(subject) { tx, logger in
            guard
                let row = try await tx.query(
                    "SELECT * FROM broker_sessions WHERE digest = \(digest.hex) FOR UPDATE", logger: logger
                ).collect().first?.makeRandomAccess()
            else { return .unknown }
            var session = try row.brokerSession()
            if session.redeemedAt != nil { return .replayed }
            guard session.expiresAt > now else { return .expired }
            let burn = "UPDATE broker_sessions SET redeemed_at = \(nowMS) WHERE digest = \(digest.hex)" as PostgresQuery
            guard session.codeChallenge == claim.codeChallenge else {
                try await tx.query(burn, logger: logger)
                return .wrongVerifier
            }
            if let failure = session.failure {
                try await tx.query(burn, logger: logger)
                return .failed(failure)
            }
            guard let userID = session.userID,
                let user = try await tx.query("SELECT * FROM users WHERE id = \(userID)", logger: logger)
                    .collect().first?.makeRandomAccess()
            else { return .pending }
            try await tx.query(burn, logger: logger)
            guard claim.matches(session) else { return .misdirected }
            let grant = claim.grant(userID: userID, at: now)
            try await tx.query(Self.insertGrant(grant), logger: logger)
            try await tx.query(Self.insertAccessToken(claim.access), logger: logger)
            session.redeemedAt = now
            return .redeemed(session, try Self.user(user), grant)
        }
    }

    public func failBrokerSession(_ digest: TokenDigest, failure: String, at now: Date) async throws -> Bool {
        let nowMS = Milliseconds.from(now)
        return try await !rows(
            Subject("broker session failure"),
            """
            UPDATE broker_sessions SET failure = \(failure) WHERE digest = \(digest.hex) AND user_id IS NULL
                AND redeemed_at IS NULL AND failure IS NULL AND expires_at > \(nowMS)
            RETURNING digest
            """
        ).isEmpty
    }

    public func linkedIdentities(userID: String) async throws -> [LinkedIdentityRecord] {
        try await rows(
            Subject("linked identities"),
            "SELECT * FROM linked_identities WHERE user_id = \(userID) ORDER BY upstream_id, subject"
        ).map {
            LinkedIdentityRecord(
                upstreamID: try $0.text("upstream_id"), subject: try $0.text("subject"), userID: try $0.text("user_id"),
                linkedAt: try $0.date("linked_at"))
        }
    }

    /// `body` inside `BEGIN … COMMIT` on one pooled connection (rolled back when it throws).
    func inTransaction<T: Sendable>(
        _ subject: Subject, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        countRoundTrip()
        let logger = self.logger
        return try await withConnection(subject) { connection in
            try await connection.withTransaction(logger: logger) { tx in try await body(tx, logger) }
        }
    }
}
