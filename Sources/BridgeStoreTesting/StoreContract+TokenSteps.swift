import BridgeStore
import Foundation
import Testing

/// Store contract: the token endpoint's steps, each one store call that consumes a code or refresh token and records
/// the tokens of the response in the same transaction.
enum TokenStepContract {
    static func draft(_ id: String, refresh: String? = nil, at issuedAt: Date) -> TokenResponseDraft {
        TokenResponseDraft(
            issuedAt: issuedAt, accessTokenID: id, accessExpiresAt: seconds(300), refreshDigest: refresh.map { TokenDigest(of: $0) },
            refreshExpiresAt: refresh == nil ? nil : seconds(9000))
    }

    static let redemptionRecordsItsTokenResponseInTheSameCall = StoreContractCheck(
        "token steps: a redemption records the access and refresh token and the session context in one call"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let secret = SecretToken()
            let code = SingleUseContract.code(in: grant, secret)
            try await store.issueAuthorizationCode(code)
            let before = store.roundTrips
            let redemption = try await store.redeemAuthorizationCode(
                secret.digest, at: seconds(1), issuing: draft("jti-1", refresh: "r-1", at: seconds(1)), sessionContext: "sc-2")
            #expect(store.roundTrips - before == 1)
            var updated = grant
            updated.sessionContext = "sc-2"
            #expect(redemption == .redeemed(code, updated))
            #expect(try await store.grant(id: grant.id)?.sessionContext == "sc-2")
            #expect(try await store.accessTokenStatus(tokenID: "jti-1", at: seconds(2)) == .active(
                AccessTokenRecord(tokenID: "jti-1", grantID: grant.id, issuedAt: seconds(1), expiresAt: seconds(300)), updated))
            #expect(try await store.refreshTokenStatus(TokenDigest(of: "r-1"), at: seconds(2)) == .active(
                RefreshTokenRecord(
                    digest: TokenDigest(of: "r-1"), grantID: grant.id, clientID: code.clientID, scope: code.scope,
                    issuedAt: seconds(1), expiresAt: seconds(9000)),
                updated))
            // A replay records nothing and revokes what the first redemption issued.
            #expect(try await store.redeemAuthorizationCode(
                secret.digest, at: seconds(3), issuing: draft("jti-2", at: seconds(3)), sessionContext: nil) == .replayed(grant.id))
            #expect(try await store.accessTokenStatus(tokenID: "jti-2", at: seconds(4)) == .unknown)
            #expect(try await store.accessTokenStatus(tokenID: "jti-1", at: seconds(4)) == .revoked)
        }
    }

    static let concurrentRedemptionsRecordOneTokenResponse = StoreContractCheck(
        "token steps: concurrent redemptions of one code record exactly one token response"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let secret = SecretToken()
            try await store.issueAuthorizationCode(SingleUseContract.code(in: grant, secret))
            let winners = try await withThrowingTaskGroup(of: String?.self) { group in
                for attempt in 0..<16 {
                    group.addTask {
                        let outcome = try await store.redeemAuthorizationCode(
                            secret.digest, at: seconds(1), issuing: draft("jti-\(attempt)", at: seconds(1)), sessionContext: nil)
                        if case .redeemed = outcome { return "jti-\(attempt)" }
                        return nil
                    }
                }
                return try await group.reduce(into: [String]()) { if let id = $1 { $0.append(id) } }
            }
            #expect(winners.count == 1)
            var recorded = 0
            for attempt in 0..<16 {
                if try await store.accessTokenStatus(tokenID: "jti-\(attempt)", at: seconds(2)) != .unknown { recorded += 1 }
            }
            #expect(recorded == 1)
        }
    }

    static func refreshRequest(
        _ presented: String, client: String = "office", scope: String? = nil, issuing: TokenResponseDraft,
        sessionContext: String? = nil
    ) -> RefreshRequest {
        RefreshRequest(
            presented: TokenDigest(of: presented), clientID: client, requestedScope: scope, issuing: issuing,
            sessionContext: sessionContext)
    }

    /// `office` refreshing `presented` into the access token `accessTokenID` and the refresh token `next`, as the
    /// token endpoint asks (no scope parameter, no session context).
    static func refresh(
        _ store: any Store, _ presented: String, into next: String, accessTokenID: String, at now: Date,
        reuseGrace: TimeInterval = 0
    ) async throws -> RefreshOutcome {
        try await store.refresh(
            refreshRequest(presented, issuing: draft(accessTokenID, refresh: next, at: now)), at: now, reuseGrace: reuseGrace)
    }

    /// The refresh token named `name` that `office` holds in `grant`.
    static func refreshToken(
        _ name: String, in grant: GrantRecord, at issuedAt: Date, expiresAt: Date? = nil
    ) -> RefreshTokenRecord {
        RefreshTokenRecord(
            digest: TokenDigest(of: name), grantID: grant.id, clientID: "office", scope: "wopi", issuedAt: issuedAt,
            expiresAt: expiresAt)
    }

    /// The replacement `next` as `refresh(_:_:into:accessTokenID:at:reuseGrace:)` records it: in the presented
    /// token's grant, with its client and scope, expiring when `draft` says.
    static func replacement(_ next: String, in grant: GrantRecord, at issuedAt: Date) -> RefreshTokenRecord {
        refreshToken(next, in: grant, at: issuedAt, expiresAt: seconds(9000))
    }

    static let refreshRotatesAndRecordsTheNewAccessTokenInOneCall = StoreContractCheck(
        "token steps: a refresh checks client and scope, rotates, and records the new tokens in one call"
    ) { kind in
        try await withStore(kind) { store in
            var grant = GrantRecord(userID: "alice", clientID: "office", scope: "wopi profile", createdAt: t0)
            try await store.createGrant(grant)
            let first = RefreshTokenRecord(
                digest: TokenDigest(of: "r-1"), grantID: grant.id, clientID: "office", scope: "wopi profile", issuedAt: t0)
            try await store.issueRefreshToken(first)
            #expect(try await store.refresh(
                refreshRequest("r-1", client: "partner", issuing: draft("a", refresh: "r-2", at: seconds(1))), at: seconds(1), reuseGrace: 0)
                == .otherClient(first))
            #expect(try await store.refresh(
                refreshRequest("r-1", scope: "wopi admin", issuing: draft("a", refresh: "r-2", at: seconds(1))), at: seconds(1), reuseGrace: 0)
                == .scopeTooWide(first))
            #expect(try await store.refreshTokenStatus(first.digest, at: seconds(1)) == .active(first, grant))

            let before = store.roundTrips
            let outcome = try await store.refresh(
                refreshRequest("r-1", scope: "profile", issuing: draft("jti-1", refresh: "r-2", at: seconds(2)), sessionContext: "sc"),
                at: seconds(2), reuseGrace: 0)
            #expect(store.roundTrips - before == 1)
            grant.sessionContext = "sc"
            #expect(outcome == .rotated(previous: first, grant: grant, accessScope: "profile"))
            #expect(try await store.accessTokenStatus(tokenID: "jti-1", at: seconds(3)) == .active(
                AccessTokenRecord(tokenID: "jti-1", grantID: grant.id, issuedAt: seconds(2), expiresAt: seconds(300)), grant))
            // The new refresh token keeps the full scope (RFC 6749 §6).
            guard case .active(let second, _) = try await store.refreshTokenStatus(TokenDigest(of: "r-2"), at: seconds(3)) else {
                Issue.record("the replacement refresh token is not active")
                return
            }
            #expect(second.scope == "wopi profile")
            #expect(try await store.refresh(
                refreshRequest("r-1", issuing: draft("jti-2", refresh: "r-3", at: seconds(4))), at: seconds(4), reuseGrace: 0)
                == .replayed(grant.id))
            #expect(try await store.refreshTokenStatus(TokenDigest(of: "r-2"), at: seconds(5)) == .revoked(second))
            #expect(try await store.refresh(
                refreshRequest("unknown", issuing: draft("jti-3", refresh: "r-4", at: seconds(5))), at: seconds(5), reuseGrace: 0) == .unknown)
        }
    }

    static let all: [StoreContractCheck] = [
        redemptionRecordsItsTokenResponseInTheSameCall,
        concurrentRedemptionsRecordOneTokenResponse,
        refreshRotatesAndRecordsTheNewAccessTokenInOneCall,
        revokingARefreshTokenRevokesItsGrantForItsClientOnly,
    ] + redemptionWrites
}

extension TokenStepContract {
    static let revokingARefreshTokenRevokesItsGrantForItsClientOnly = StoreContractCheck(
        "token steps: revoking a refresh token revokes its grant in one call, only for the client it belongs to"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let token = RefreshTokenRecord(
                digest: TokenDigest(of: "r"), grantID: grant.id, clientID: "office", scope: "wopi", issuedAt: t0)
            try await store.issueRefreshToken(token)
            #expect(try await store.revokeRefreshToken(token.digest, clientID: "partner", at: seconds(1)) == .active(token, grant))
            #expect(try await store.grant(id: grant.id)?.revokedAt == nil)
            #expect(try await store.revokeRefreshToken(TokenDigest(of: "none"), clientID: "office", at: seconds(1)) == .unknown)
            let before = store.roundTrips
            #expect(try await store.revokeRefreshToken(token.digest, clientID: "office", at: seconds(2)) == .active(token, grant))
            #expect(store.roundTrips - before == 1)
            #expect(try await store.grant(id: grant.id)?.revokedAt == seconds(2))
            #expect(try await store.refreshTokenStatus(token.digest, at: seconds(3)) == .revoked(token))
        }
    }
}
