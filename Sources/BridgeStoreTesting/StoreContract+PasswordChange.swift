import BridgeStore
import Foundation
import Testing

/// Store contract: a password change, one call that sets the hash, ends the user's sessions and revokes their grants.
enum PasswordChangeContract {
    static let alice = UserRecord(
        id: "alice", signInName: "alice@example.com", friendlyName: "Alice", passwordHash: "old", email: "a@example.com")

    static func session(_ user: String, expiresAt: Date = seconds(600)) -> SessionRecord {
        SessionRecord(digest: SecretToken().digest, userID: user, createdAt: t0, expiresAt: expiresAt)
    }

    static let changeEndsSessionsAndRevokesGrantsInOneCall = StoreContractCheck(
        "password change: the hash is set, the user's live sessions end and active grants are revoked, in one call"
    ) { kind in
        try await withStore(kind) { store in
            try await store.saveUser(alice)
            let (live, expired, others) = (session("alice"), session("alice", expiresAt: seconds(5)), session("bob"))
            for record in [live, expired, others] { try await store.createSession(record) }
            let grant = try await makeGrant(in: store, user: "alice")
            let old = try await makeGrant(in: store, user: "alice")
            try await store.revokeGrant(old.id, at: seconds(1))
            let bobs = try await makeGrant(in: store, user: "bob")
            try await store.recordAccessToken(NewGrantStepContract.token("jti", in: grant.id))
            let (trips, changes) = (store.roundTrips, store.changeCounter)
            let change = try await store.changePassword(userID: "alice", passwordHash: "new", at: seconds(10))
            #expect(store.roundTrips - trips == 1)
            #expect(store.changeCounter > changes)
            // Only what was live or active counts.
            #expect(change == PasswordChange(endedSessions: 1, revokedGrants: 1))
            var changed = alice
            changed.passwordHash = "new"
            #expect(try await store.user(id: "alice") == changed)
            #expect(try await store.activeSession(live.digest, at: seconds(11)) == nil)
            #expect(try await store.activeSession(others.digest, at: seconds(11)) != nil)
            #expect(try await store.grant(id: grant.id)?.revokedAt == seconds(10))
            #expect(try await store.grant(id: old.id)?.revokedAt == seconds(1))
            #expect(try await store.grant(id: bobs.id)?.revokedAt == nil)
            #expect(try await store.accessTokenStatus(tokenID: "jti", at: seconds(11)) == .revoked)
        }
    }

    static let unknownUserChangesNothing = StoreContractCheck(
        "password change: an unknown user is nil, and their sessions and grants stay"
    ) { kind in
        try await withStore(kind) { store in
            // Records of a user id that has no account (a deleted user's, say).
            let orphan = session("ghost")
            try await store.createSession(orphan)
            let grant = try await makeGrant(in: store, user: "ghost")
            #expect(try await store.changePassword(userID: "ghost", passwordHash: "new", at: seconds(10)) == nil)
            #expect(try await store.activeSession(orphan.digest, at: seconds(11)) != nil)
            #expect(try await store.grant(id: grant.id)?.revokedAt == nil)
            #expect(try await store.user(id: "ghost") == nil)
        }
    }

    static let concurrentChangesRevokeEachGrantOnce = StoreContractCheck(
        "password change: concurrent changes of one user end each session and revoke each grant once"
    ) { kind in
        try await withStore(kind) { store in
            try await store.saveUser(alice)
            for _ in 0..<6 {
                try await store.createSession(session("alice"))
                _ = try await makeGrant(in: store, user: "alice")
            }
            let changes = try await withThrowingTaskGroup(of: PasswordChange?.self) { group in
                for index in 0..<8 {
                    group.addTask { try await store.changePassword(userID: "alice", passwordHash: "h\(index)", at: seconds(10)) }
                }
                return try await group.reduce(into: [PasswordChange?]()) { $0.append($1) }
            }
            #expect(changes.allSatisfy { $0 != nil })
            #expect(changes.compactMap { $0?.endedSessions }.reduce(0, +) == 6)
            #expect(changes.compactMap { $0?.revokedGrants }.reduce(0, +) == 6)
        }
    }

    static let all: [StoreContractCheck] = [
        changeEndsSessionsAndRevokesGrantsInOneCall,
        unknownUserChangesNothing,
        concurrentChangesRevokeEachGrantOnce,
    ]
}
