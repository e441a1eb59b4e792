import BridgeStore
import Foundation
import Testing

/// The single-use rules of RFC 9700 §4.2.4 (codes) and §4.14.2 (refresh token rotation), including races: several
/// redemptions at once must give exactly one success, whichever server instance they reach.
/// Store contract: single-use codes and refresh tokens.
enum SingleUseContract {
    static func code(in grant: GrantRecord, _ secret: SecretToken, expiresAt: Date = seconds(60)) -> AuthorizationCodeRecord {
        AuthorizationCodeRecord(
            digest: secret.digest, grantID: grant.id, clientID: grant.clientID, redirectURI: "https://localhost",
            codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", codeChallengeMethod: "S256", scope: "wopi",
            issuedAt: t0, expiresAt: expiresAt)
    }

    static let codeRedeemsOnceThenAReplayRevokesItsGrant = StoreContractCheck(
        "single-use codes and refresh tokens: codeRedeemsOnceThenAReplayRevokesItsGrant"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let secret = SecretToken()
            let code = Self.code(in: grant, secret)
            try await store.issueAuthorizationCode(code)
            try await store.recordAccessToken(
                AccessTokenRecord(tokenID: "from-code", grantID: grant.id, issuedAt: t0, expiresAt: seconds(300)))
            #expect(try await store.redeemAuthorizationCode(secret.digest, at: seconds(1)) == .redeemed(code, grant))
            #expect(try await store.redeemAuthorizationCode(secret.digest, at: seconds(2)) == .replayed(grant.id))
            #expect(try await store.grant(id: grant.id)?.revokedAt == seconds(2))
            #expect(try await store.accessTokenStatus(tokenID: "from-code", at: seconds(3)) == .revoked)
            // Still a replay after the code's lifetime (the conformance suite's "after 30 s" case and beyond).
            #expect(try await store.redeemAuthorizationCode(secret.digest, at: seconds(90)) == .replayed(grant.id))
        }
    }

    static let codeIsRefusedWhenExpiredUnknownOrItsGrantRevoked = StoreContractCheck(
        "single-use codes and refresh tokens: codeIsRefusedWhenExpiredUnknownOrItsGrantRevoked"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let expiring = SecretToken()
            try await store.issueAuthorizationCode(Self.code(in: grant, expiring, expiresAt: seconds(60)))
            #expect(try await store.redeemAuthorizationCode(expiring.digest, at: seconds(60)) == .expired)
            #expect(try await store.redeemAuthorizationCode(SecretToken().digest, at: t0) == .unknown)

            let other = try await makeGrant(in: store, user: "bob")
            let revokedCode = SecretToken()
            try await store.issueAuthorizationCode(Self.code(in: other, revokedCode))
            try await store.revokeGrant(other.id, at: seconds(1))
            #expect(try await store.redeemAuthorizationCode(revokedCode.digest, at: seconds(2)) == .revoked)
        }
    }

    static let concurrentRedemptionsGiveExactlyOneSuccess = StoreContractCheck(
        "single-use codes and refresh tokens: concurrentRedemptionsGiveExactlyOneSuccess"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let secret = SecretToken()
            try await store.issueAuthorizationCode(Self.code(in: grant, secret))
            let outcomes = try await withThrowingTaskGroup(of: CodeRedemption.self) { group in
                for _ in 0..<16 { group.addTask { try await store.redeemAuthorizationCode(secret.digest, at: seconds(1)) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { if case .redeemed = $0 { true } else { false } }.count == 1)
            #expect(outcomes.filter { $0 == .replayed(grant.id) }.count == 15)
        }
    }

    static let refreshTokenRotatesIntoTheSameGrant = StoreContractCheck(
        "single-use codes and refresh tokens: refreshTokenRotatesIntoTheSameGrant"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let first = TokenStepContract.refreshToken("r-1", in: grant, at: t0)
            try await store.issueRefreshToken(first)
            // The request names no grant: the replacement joins the presented token's, with its client and scope.
            #expect(
                try await TokenStepContract.refresh(store, "r-1", into: "r-2", accessTokenID: "jti-2", at: seconds(10))
                    == .rotated(previous: first, grant: grant, accessScope: "wopi"))
            #expect(
                try await TokenStepContract.refresh(store, "r-2", into: "r-3", accessTokenID: "jti-3", at: seconds(20))
                    == .rotated(
                        previous: TokenStepContract.replacement("r-2", in: grant, at: seconds(10)), grant: grant,
                        accessScope: "wopi"))
        }
    }

    static let reusingARotatedRefreshTokenRevokesTheWholeGrant = StoreContractCheck(
        "single-use codes and refresh tokens: reusingARotatedRefreshTokenRevokesTheWholeGrant"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            try await store.issueRefreshToken(TokenStepContract.refreshToken("r-1", in: grant, at: t0))
            _ = try await TokenStepContract.refresh(store, "r-1", into: "r-2", accessTokenID: "jti-2", at: seconds(1))
            #expect(
                try await TokenStepContract.refresh(store, "r-1", into: "attacker", accessTokenID: "jti-attacker", at: seconds(2))
                    == .replayed(grant.id))
            // The legitimate holder's current token dies with the grant.
            #expect(
                try await TokenStepContract.refresh(store, "r-2", into: "later", accessTokenID: "jti-later", at: seconds(3))
                    == .revoked)
        }
    }

    static let expiredOrUnknownRefreshTokenIsNotRotated = StoreContractCheck(
        "single-use codes and refresh tokens: expiredOrUnknownRefreshTokenIsNotRotated"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            try await store.issueRefreshToken(
                TokenStepContract.refreshToken("r-1", in: grant, at: t0, expiresAt: seconds(100)))
            #expect(
                try await TokenStepContract.refresh(store, "r-1", into: "r-2", accessTokenID: "jti-2", at: seconds(100))
                    == .expired)
            #expect(
                try await TokenStepContract.refresh(store, "unknown", into: "r-3", accessTokenID: "jti-3", at: seconds(1))
                    == .unknown)
        }
    }

    static let concurrentRotationsGiveExactlyOneSuccess = StoreContractCheck(
        "single-use codes and refresh tokens: concurrentRotationsGiveExactlyOneSuccess"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            try await store.issueRefreshToken(TokenStepContract.refreshToken("r-1", in: grant, at: t0))
            let outcomes = try await withThrowingTaskGroup(of: RefreshOutcome.self) { group in
                for attempt in 0..<16 {
                    group.addTask {
                        try await TokenStepContract.refresh(
                            store, "r-1", into: "r-next-\(attempt)", accessTokenID: "jti-\(attempt)", at: seconds(1))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { if case .rotated = $0 { true } else { false } }.count == 1)
            // The first loser revokes the grant; later losers may then see .replayed as well (the token is rotated).
            #expect(outcomes.filter { $0 == .replayed(grant.id) }.count == 15)
        }
    }

    static let all: [StoreContractCheck] = [
        codeRedeemsOnceThenAReplayRevokesItsGrant,
        codeIsRefusedWhenExpiredUnknownOrItsGrantRevoked,
        concurrentRedemptionsGiveExactlyOneSuccess,
        refreshTokenRotatesIntoTheSameGrant,
        reusingARotatedRefreshTokenRevokesTheWholeGrant,
        expiredOrUnknownRefreshTokenIsNotRotated,
        concurrentRotationsGiveExactlyOneSuccess,
    ]
}
