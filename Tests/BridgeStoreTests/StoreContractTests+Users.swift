import BridgeStore
import Foundation
import Testing

@Suite("Store contract: users, grants, sessions")
struct StoreUserContractTests {
    @Test(arguments: StoreUnderTest.all)
    func savedUserIsFoundByIdAndCaseInsensitiveSignInName(kind: StoreUnderTest) async throws {
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

    @Test(arguments: StoreUnderTest.all)
    func savingAgainReplacesEveryField(kind: StoreUnderTest) async throws {
        try await withStore(kind) { store in
            try await store.saveUser(UserRecord(id: "u-1", signInName: "a@x", friendlyName: "A", passwordHash: "h1"))
            let changed = UserRecord(id: "u-1", signInName: "b@x", friendlyName: nil, passwordHash: nil)
            try await store.saveUser(changed)
            #expect(try await store.user(id: "u-1") == changed)
            #expect(try await store.user(signInName: "a@x") == nil)
        }
    }

    @Test(arguments: StoreUnderTest.all)
    func signInNameIsUniqueAcrossUsers(kind: StoreUnderTest) async throws {
        try await withStore(kind) { store in
            try await store.saveUser(UserRecord(id: "u-1", signInName: "a@x"))
            await #expect(throws: StoreError.self) {
                try await store.saveUser(UserRecord(id: "u-2", signInName: "A@X"))
            }
        }
    }

    @Test(arguments: StoreUnderTest.all)
    func grantKeepsItsFieldsAndLatestSessionContext(kind: StoreUnderTest) async throws {
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

    @Test(arguments: StoreUnderTest.all)
    func revokingAGrantKeepsTheFirstRevocationTime(kind: StoreUnderTest) async throws {
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            #expect(try await store.revokeGrant(grant.id, at: seconds(10)))
            #expect(try await store.revokeGrant(grant.id, at: seconds(20)))
            #expect(try await store.grant(id: grant.id)?.revokedAt == seconds(10))
            #expect(try await store.revokeGrant(GrantID("unknown"), at: seconds(10)) == false)
        }
    }

    @Test(arguments: StoreUnderTest.all)
    func revokingAUsersGrantsCountsOnlyActiveOnesOfThatUser(kind: StoreUnderTest) async throws {
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

    @Test(arguments: StoreUnderTest.all)
    func sessionIsActiveUntilItExpiresOrIsEnded(kind: StoreUnderTest) async throws {
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

    @Test(arguments: StoreUnderTest.all)
    func healthCheckPassesOnAnOpenStoreAndCloseEndsIt(kind: StoreUnderTest) async throws {
        let store = try await kind.open()
        try await store.checkHealth()
        try await store.close()
        await #expect(throws: (any Error).self) { try await store.checkHealth() }
    }
}
