import BridgeStore
import Foundation
import Testing

/// Store contract: the bootstrapper's step, one call that checks the access token, its grant and user and records
/// the answer's WOPI tokens.
enum BootstrapStepContract {
    static let bob = UserRecord(id: "bob", signInName: "bob@example.com", friendlyName: nil, passwordHash: nil)

    static func step(_ jti: String, tokens: [String], sessionContext: String? = nil) -> BootstrapStep {
        BootstrapStep(
            accessTokenID: jti,
            wopiTokens: tokens.enumerated().map { index, name in
                WopiTokenDraft(
                    digest: TokenDigest(of: name), wopiSource: index == 0 ? nil : "https://host/wopi/files/1",
                    issuedAt: seconds(1), expiresAt: seconds(600))
            },
            sessionContext: sessionContext)
    }

    static let activeTokenRecordsItsWopiTokensInOneCall = StoreContractCheck(
        "bootstrap step: an active token's grant and user come back and its WOPI tokens are recorded, in one call"
    ) { kind in
        try await withStore(kind) { store in
            try await store.saveUser(bob)
            let grant = try await makeGrant(in: store, user: "bob")
            try await store.recordAccessToken(AccessTokenRecord(tokenID: "jti", grantID: grant.id, issuedAt: t0, expiresAt: seconds(300)))
            let before = store.roundTrips
            #expect(try await store.bootstrap(step("jti", tokens: ["eco", "file"]), at: seconds(1)) == .active(grant, bob))
            #expect(store.roundTrips - before == 1)
            #expect(try await store.activeWopiAccessToken(TokenDigest(of: "eco"), at: seconds(2)) == WopiAccessTokenRecord(
                digest: TokenDigest(of: "eco"), grantID: grant.id, userID: "bob", wopiSource: nil, issuedAt: seconds(1),
                expiresAt: seconds(600)))
            #expect(try await store.activeWopiAccessToken(TokenDigest(of: "file"), at: seconds(2))?.wopiSource
                == "https://host/wopi/files/1")
            var updated = grant
            updated.sessionContext = "sc-9"
            #expect(try await store.bootstrap(step("jti", tokens: ["eco-2"], sessionContext: "sc-9"), at: seconds(2))
                == .active(updated, bob))
            #expect(try await store.grant(id: grant.id)?.sessionContext == "sc-9")
        }
    }

    static let refusedTokensRecordNothing = StoreContractCheck(
        "bootstrap step: an expired, revoked or unknown token, or one whose user is gone, records nothing"
    ) { kind in
        try await withStore(kind) { store in
            try await store.saveUser(bob)
            let grant = try await makeGrant(in: store, user: "bob")
            try await store.recordAccessToken(AccessTokenRecord(tokenID: "jti", grantID: grant.id, issuedAt: t0, expiresAt: seconds(300)))
            #expect(try await store.bootstrap(step("jti", tokens: ["late"]), at: seconds(300)) == .expired)
            #expect(try await store.bootstrap(step("nope", tokens: ["unknown"]), at: seconds(1)) == .unknown)
            let orphan = try await makeGrant(in: store, user: "nobody")
            try await store.recordAccessToken(AccessTokenRecord(tokenID: "orphan", grantID: orphan.id, issuedAt: t0, expiresAt: seconds(300)))
            #expect(try await store.bootstrap(step("orphan", tokens: ["orphaned"]), at: seconds(1)) == .unknown)
            try await store.revokeGrant(grant.id, at: seconds(2))
            #expect(try await store.bootstrap(step("jti", tokens: ["revoked"]), at: seconds(3)) == .revoked)
            for name in ["late", "unknown", "orphaned", "revoked"] {
                #expect(try await store.activeWopiAccessToken(TokenDigest(of: name), at: seconds(4)) == nil)
            }
        }
    }

    static let concurrentBootstrapsEachGetTheirOwnAnswer = StoreContractCheck(
        "bootstrap step: concurrent bootstraps of live and revoked tokens each get their own answer"
    ) { kind in
        try await withStore(kind) { store in
            try await store.saveUser(bob)
            let live = try await makeGrant(in: store, user: "bob")
            let dead = try await makeGrant(in: store, user: "bob")
            try await store.recordAccessToken(AccessTokenRecord(tokenID: "live", grantID: live.id, issuedAt: t0, expiresAt: seconds(300)))
            try await store.recordAccessToken(AccessTokenRecord(tokenID: "dead", grantID: dead.id, issuedAt: t0, expiresAt: seconds(300)))
            try await store.revokeGrant(dead.id, at: seconds(1))
            let answers = try await withThrowingTaskGroup(of: (Int, BootstrapStatus).self) { group in
                for index in 0..<24 {
                    group.addTask {
                        (index, try await store.bootstrap(step(index % 2 == 0 ? "live" : "dead", tokens: ["t\(index)"]), at: seconds(2)))
                    }
                }
                return try await group.reduce(into: [Int: BootstrapStatus]()) { $0[$1.0] = $1.1 }
            }
            for (index, answer) in answers {
                #expect(answer == (index % 2 == 0 ? .active(live, bob) : .revoked))
            }
        }
    }

    static let all: [StoreContractCheck] = [
        activeTokenRecordsItsWopiTokensInOneCall,
        refusedTokensRecordNothing,
        concurrentBootstrapsEachGetTheirOwnAnswer,
    ]
}
