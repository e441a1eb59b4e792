import BridgeStore
import Foundation
import Testing

/// Store contract: the bootstrapper's step, one call that checks the access token, its grant and user and records
/// a changed session context.
enum BootstrapStepContract {
    static let bob = UserRecord(id: "bob", signInName: "bob@example.com", friendlyName: nil, passwordHash: nil)

    static func step(_ jti: String, sessionContext: String? = nil) -> BootstrapStep {
        BootstrapStep(accessTokenID: jti, sessionContext: sessionContext)
    }

    static let activeTokenAnswersItsGrantAndUserInOneCall = StoreContractCheck(
        "bootstrap step: an active token's grant and user come back in one call, and a changed session context is recorded"
    ) { kind in
        try await withStore(kind) { store in
            try await store.saveUser(bob)
            let grant = try await makeGrant(in: store, user: "bob")
            try await store.recordAccessToken(AccessTokenRecord(tokenID: "jti", grantID: grant.id, issuedAt: t0, expiresAt: seconds(300)))
            let before = store.roundTrips
            #expect(try await store.bootstrap(step("jti"), at: seconds(1)) == .active(grant, bob))
            #expect(store.roundTrips - before == 1)
            var updated = grant
            updated.sessionContext = "sc-9"
            #expect(try await store.bootstrap(step("jti", sessionContext: "sc-9"), at: seconds(2)) == .active(updated, bob))
            #expect(try await store.grant(id: grant.id)?.sessionContext == "sc-9")
            // The same context again is a read: one call, nothing to write.
            let again = store.roundTrips
            #expect(try await store.bootstrap(step("jti", sessionContext: "sc-9"), at: seconds(3)) == .active(updated, bob))
            #expect(store.roundTrips - again == 1)
        }
    }

    static let refusedTokensRecordNothing = StoreContractCheck(
        "bootstrap step: an expired, revoked or unknown token, or one whose user is gone, records no session context"
    ) { kind in
        try await withStore(kind) { store in
            try await store.saveUser(bob)
            let grant = try await makeGrant(in: store, user: "bob")
            try await store.recordAccessToken(AccessTokenRecord(tokenID: "jti", grantID: grant.id, issuedAt: t0, expiresAt: seconds(300)))
            #expect(try await store.bootstrap(step("jti", sessionContext: "late"), at: seconds(300)) == .expired)
            #expect(try await store.bootstrap(step("nope", sessionContext: "unknown"), at: seconds(1)) == .unknown)
            let orphan = try await makeGrant(in: store, user: "nobody")
            try await store.recordAccessToken(AccessTokenRecord(tokenID: "orphan", grantID: orphan.id, issuedAt: t0, expiresAt: seconds(300)))
            #expect(try await store.bootstrap(step("orphan", sessionContext: "orphaned"), at: seconds(1)) == .unknown)
            #expect(try await store.grant(id: orphan.id)?.sessionContext == nil)
            try await store.revokeGrant(grant.id, at: seconds(2))
            #expect(try await store.bootstrap(step("jti", sessionContext: "revoked"), at: seconds(3)) == .revoked)
            #expect(try await store.grant(id: grant.id)?.sessionContext == nil)
            try await store.recordAccessToken(AccessTokenRecord(tokenID: "alone", grantID: orphan.id, issuedAt: t0, expiresAt: seconds(300)))
            try await store.revokeAccessToken(tokenID: "alone", at: seconds(1))
            #expect(try await store.bootstrap(step("alone"), at: seconds(2)) == .revoked)
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
                        (index, try await store.bootstrap(step(index % 2 == 0 ? "live" : "dead"), at: seconds(2)))
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
        activeTokenAnswersItsGrantAndUserInOneCall,
        refusedTokensRecordNothing,
        concurrentBootstrapsEachGetTheirOwnAnswer,
    ]
}
