import BridgeStore
import Foundation
import Testing

/// Store contract: access tokens.
enum TokenContract {
    static let accessTokenIsActiveUntilItsExpiryInstant = StoreContractCheck(
        "access tokens: accessTokenIsActiveUntilItsExpiryInstant"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let token = AccessTokenRecord(tokenID: "jti-1", grantID: grant.id, issuedAt: t0, expiresAt: seconds(300))
            try await store.recordAccessToken(token)
            #expect(try await store.accessTokenStatus(tokenID: "jti-1", at: seconds(299)) == .active(token, grant))
            #expect(try await store.accessTokenStatus(tokenID: "jti-1", at: seconds(300)) == .expired)
            #expect(try await store.accessTokenStatus(tokenID: "jti-2", at: t0) == .unknown)
        }
    }

    static let accessTokenIsRevokedAloneOrWithItsGrant = StoreContractCheck(
        "access tokens: accessTokenIsRevokedAloneOrWithItsGrant"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            for id in ["a", "b"] {
                try await store.recordAccessToken(
                    AccessTokenRecord(tokenID: id, grantID: grant.id, issuedAt: t0, expiresAt: seconds(300)))
            }
            #expect(try await store.revokeAccessToken(tokenID: "a", at: seconds(1)))
            #expect(try await store.revokeAccessToken(tokenID: "zzz", at: seconds(1)) == false)
            #expect(try await store.accessTokenStatus(tokenID: "a", at: seconds(2)) == .revoked)
            guard case .active = try await store.accessTokenStatus(tokenID: "b", at: seconds(2)) else {
                Issue.record("b must stay active")
                return
            }
            try await store.revokeGrant(grant.id, at: seconds(3))
            #expect(try await store.accessTokenStatus(tokenID: "b", at: seconds(4)) == .revoked)
        }
    }

    static let accessTokenNeedsAnExistingGrantAndAUniqueID = StoreContractCheck(
        "access tokens: accessTokenNeedsAnExistingGrantAndAUniqueID"
    ) { kind in
        try await withStore(kind) { store in
            let orphan = AccessTokenRecord(tokenID: "x", grantID: GrantID("missing"), issuedAt: t0, expiresAt: seconds(1))
            await #expect(throws: StoreError.missingReference(what: "the grant of access token x")) {
                try await store.recordAccessToken(orphan)
            }
            let grant = try await makeGrant(in: store)
            let token = AccessTokenRecord(tokenID: "x", grantID: grant.id, issuedAt: t0, expiresAt: seconds(1))
            try await store.recordAccessToken(token)
            await #expect(throws: StoreError.duplicate(what: "access token x")) {
                try await store.recordAccessToken(token)
            }
        }
    }

    static let purgeDeletesOnlyWhatExpiredBeforeTheCutoff = StoreContractCheck(
        "access tokens: purgeDeletesOnlyWhatExpiredBeforeTheCutoff"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            try await store.recordAccessToken(
                AccessTokenRecord(tokenID: "old", grantID: grant.id, issuedAt: t0, expiresAt: seconds(10)))
            try await store.recordAccessToken(
                AccessTokenRecord(tokenID: "new", grantID: grant.id, issuedAt: t0, expiresAt: seconds(1000)))
            let code = SecretToken()
            try await store.issueAuthorizationCode(
                AuthorizationCodeRecord(
                    digest: code.digest, grantID: grant.id, clientID: "office", redirectURI: "https://localhost",
                    issuedAt: t0, expiresAt: seconds(60)))
            _ = try await store.redeemAuthorizationCode(code.digest, at: seconds(1))
            // A consumed code is kept until it expires, so a replay within its lifetime is still detected.
            #expect(try await store.purgeExpired(before: seconds(30), limit: 100) == 1)
            #expect(try await store.accessTokenStatus(tokenID: "old", at: seconds(5)) == .unknown)
            #expect(try await store.redeemAuthorizationCode(code.digest, at: seconds(40)) == .replayed(grant.id))
            #expect(try await store.purgeExpired(before: seconds(61), limit: 100) == 1)
            #expect(try await store.redeemAuthorizationCode(code.digest, at: seconds(62)) == .unknown)
        }
    }

    static let purgeDeletesAtMostTheLimitOfEachKindPerCall = StoreContractCheck(
        "access tokens: purgeDeletesAtMostTheLimitOfEachKindPerCall"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            for index in 0..<5 {
                try await store.recordAccessToken(
                    AccessTokenRecord(tokenID: "old-\(index)", grantID: grant.id, issuedAt: t0, expiresAt: seconds(10)))
            }
            try await store.recordAccessToken(
                AccessTokenRecord(tokenID: "new", grantID: grant.id, issuedAt: t0, expiresAt: seconds(1000)))
            try await store.recordSignInFailure(keys: ["account:a@x", "address:203.0.113.9"], at: seconds(0))
            // Two tokens and both failures, then two tokens, then the last one: below the limit, so nothing is left.
            #expect(try await store.purgeExpired(before: seconds(30), limit: 2) == 4)
            #expect(try await store.purgeExpired(before: seconds(30), limit: 2) == 2)
            #expect(try await store.purgeExpired(before: seconds(30), limit: 2) == 1)
            #expect(try await store.purgeExpired(before: seconds(30), limit: 2) == 0)
            for index in 0..<5 {
                #expect(try await store.accessTokenStatus(tokenID: "old-\(index)", at: seconds(5)) == .unknown)
            }
            guard case .active = try await store.accessTokenStatus(tokenID: "new", at: seconds(30)) else {
                Issue.record("the live token was purged")
                return
            }
        }
    }

    static let all: [StoreContractCheck] = [
        purgeDeletesAtMostTheLimitOfEachKindPerCall,
        accessTokenIsActiveUntilItsExpiryInstant,
        accessTokenIsRevokedAloneOrWithItsGrant,
        accessTokenNeedsAnExistingGrantAndAUniqueID,
        purgeDeletesOnlyWhatExpiredBeforeTheCutoff,
    ]
}
