import BridgeStore
import Foundation
import Testing

/// Store contract: users, grants, sessions.
enum UserContract {
    static let savedUserIsFoundByIdAndCaseInsensitiveSignInName = StoreContractCheck(
        "users: savedUserIsFoundByIdAndCaseInsensitiveSignInName"
    ) { kind in
        try await withStore(kind) { store in
            let alice = UserRecord(
                id: "u-1", signInName: "Alice@Example.com", friendlyName: "Alice", passwordHash: "$2b$12$x")
            try await store.saveUser(alice)
            #expect(try await store.user(id: "u-1") == alice)
            #expect(try await store.user(signInName: "alice@example.COM") == alice)
            #expect(try await store.user(id: "u-2") == nil)
            #expect(try await store.user(signInName: "bob@example.com") == nil)
        }
    }

    static let savingAgainReplacesEveryField = StoreContractCheck("users: savingAgainReplacesEveryField") { kind in
        try await withStore(kind) { store in
            try await store.saveUser(UserRecord(id: "u-1", signInName: "a@x", friendlyName: "A", passwordHash: "h1"))
            let changed = UserRecord(id: "u-1", signInName: "b@x", friendlyName: nil, passwordHash: nil)
            try await store.saveUser(changed)
            #expect(try await store.user(id: "u-1") == changed)
            #expect(try await store.user(signInName: "a@x") == nil)
        }
    }

    static let signInNameIsUniqueAcrossUsers = StoreContractCheck("users: signInNameIsUniqueAcrossUsers") { kind in
        try await withStore(kind) { store in
            try await store.saveUser(UserRecord(id: "u-1", signInName: "a@x"))
            await #expect(throws: StoreError.self) {
                try await store.saveUser(UserRecord(id: "u-2", signInName: "A@X"))
            }
        }
    }

    static let grantKeepsItsFieldsAndLatestSessionContext = StoreContractCheck(
        "users: grantKeepsItsFieldsAndLatestSessionContext"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            #expect(try await store.grant(id: grant.id) == grant)
            #expect(try await store.recordSessionContext("sc-1", grant: grant.id))
            #expect(try await store.recordSessionContext("sc-2", grant: grant.id))
            #expect(try await store.grant(id: grant.id)?.sessionContext == "sc-2")
            #expect(try await store.recordSessionContext("sc", grant: GrantID("nope")) == false)
            await #expect(throws: StoreError.duplicate(what: "grant \(grant.id)")) {
                try await store.createGrant(grant)
            }
        }
    }

    static let revokingAGrantKeepsTheFirstRevocationTime = StoreContractCheck(
        "users: revokingAGrantKeepsTheFirstRevocationTime"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            #expect(try await store.revokeGrant(grant.id, at: seconds(10)))
            #expect(try await store.revokeGrant(grant.id, at: seconds(20)))
            #expect(try await store.grant(id: grant.id)?.revokedAt == seconds(10))
            #expect(try await store.revokeGrant(GrantID("unknown"), at: seconds(10)) == false)
        }
    }

    static let revokingAUsersGrantsCountsOnlyActiveOnesOfThatUser = StoreContractCheck(
        "users: revokingAUsersGrantsCountsOnlyActiveOnesOfThatUser"
    ) { kind in
        try await withStore(kind) { store in
            let first = try await makeGrant(in: store, user: "alice")
            _ = try await makeGrant(in: store, user: "alice", client: "partner-app")
            let bobs = try await makeGrant(in: store, user: "bob")
            try await store.revokeGrant(first.id, at: seconds(1))
            #expect(try await store.revokeGrants(userID: "alice", at: seconds(2)) == 1)
            #expect(try await store.revokeGrants(userID: "alice", at: seconds(3)) == 0)
            #expect(try await store.grant(id: bobs.id)?.revokedAt == nil)
        }
    }

    static let sessionIsActiveUntilItExpiresOrIsEnded = StoreContractCheck(
        "users: sessionIsActiveUntilItExpiresOrIsEnded"
    ) { kind in
        try await withStore(kind) { store in
            let cookie = SecretToken()
            let other = SecretToken()
            let session = SessionRecord(digest: cookie.digest, userID: "alice", createdAt: t0, expiresAt: seconds(60))
            try await store.createSession(session)
            try await store.createSession(
                SessionRecord(digest: other.digest, userID: "alice", createdAt: t0, expiresAt: seconds(600)))
            #expect(try await store.activeSession(cookie.digest, at: seconds(59)) == session)
            #expect(try await store.activeSession(cookie.digest, at: seconds(60)) == nil)
            #expect(try await store.activeSession(SecretToken().digest, at: t0) == nil)
            // The first session has expired by now: only the second counts as ended.
            #expect(try await store.endSessions(userID: "alice", at: seconds(61)) == 1)
            #expect(try await store.activeSession(other.digest, at: seconds(62)) == nil)
        }
    }

    static let healthCheckPassesOnAnOpenStoreAndCloseEndsIt = StoreContractCheck(
        "users: healthCheckPassesOnAnOpenStoreAndCloseEndsIt"
    ) { kind in
        let store = try await kind.open()
        try await store.checkHealth()
        try await store.close()
        await #expect(throws: (any Error).self) { try await store.checkHealth() }
    }

    static let all: [StoreContractCheck] = [
        savedUserIsFoundByIdAndCaseInsensitiveSignInName,
        savingAgainReplacesEveryField,
        signInNameIsUniqueAcrossUsers,
        grantKeepsItsFieldsAndLatestSessionContext,
        revokingAGrantKeepsTheFirstRevocationTime,
        revokingAUsersGrantsCountsOnlyActiveOnesOfThatUser,
        sessionIsActiveUntilItExpiresOrIsEnded,
        healthCheckPassesOnAnOpenStoreAndCloseEndsIt,
    ]
}
