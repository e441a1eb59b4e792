import BridgeStore
import Foundation
import Testing

/// Store contract: Native SSO device sessions (OpenID Connect Native SSO for Mobile Apps 1.0 draft 07). A live
/// session whose `sid`, user and group match is exchanged for another app's grant and tokens in one call; an ended,
/// expired, unknown or mismatched one records nothing. Logout, revocation and a password change end sessions.
enum DeviceSSOContract {
    static func session(_ secret: SecretToken, sid: String = "sid-1", user: String = "alice") -> DeviceSessionRecord {
        DeviceSessionRecord(
            digest: secret.digest, sid: sid, userID: user, clientID: "app-a", group: "example-merchant",
            scope: "openid device_sso", authTime: t0, createdAt: t0, expiresAt: seconds(3600))
    }

    static let claim = DeviceSessionClaim(sid: "sid-1", userID: "alice", group: "example-merchant", scope: "openid")

    static func appB(at time: Date = seconds(10)) -> (GrantRecord, TokenResponseDraft) {
        let grant = GrantRecord(userID: "alice", clientID: "app-b", scope: "openid", createdAt: time)
        let draft = TokenResponseDraft(
            issuedAt: time, accessTokenID: "jti-\(UUID().uuidString)", accessExpiresAt: time.addingTimeInterval(300),
            refreshDigest: SecretToken().digest, refreshExpiresAt: time.addingTimeInterval(600))
        return (grant, draft)
    }

    static let aLiveSessionIsExchangedInOneCall = StoreContractCheck(
        "device sso: a live session whose sid, user and group match is exchanged for a grant and tokens in one call"
    ) { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            try await store.createDeviceSession(session(secret))
            let (grant, draft) = appB()
            let before = store.roundTrips
            let outcome = try await store.exchangeDeviceSecret(secret.digest, claim: claim, grant: grant, issuing: draft, at: seconds(10))
            #expect(store.roundTrips - before == 1)
            #expect(outcome == .exchanged(session(secret)))
            #expect(try await store.grant(id: grant.id) == grant)
            let access = AccessTokenRecord(
                tokenID: draft.accessTokenID, grantID: grant.id, issuedAt: draft.issuedAt, expiresAt: draft.accessExpiresAt)
            #expect(try await store.accessTokenStatus(tokenID: draft.accessTokenID, at: seconds(11)) == .active(access, grant))
            let refresh = try await store.refreshTokenStatus(try #require(draft.refreshDigest), at: seconds(11))
            guard case .active(let record, _) = refresh else {
                Issue.record("the refresh token was not recorded: \(refresh)")
                return
            }
            #expect(record.clientID == "app-b")
        }
    }

    static let aRefusedExchangeRecordsNothing = StoreContractCheck(
        "device sso: an unknown, mismatched (sid, user, group, wider scope), expired or ended session records nothing"
    ) { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            try await store.createDeviceSession(session(secret))
            func attempt(_ digest: TokenDigest, _ claim: DeviceSessionClaim, at time: Date) async throws
                -> DeviceSecretExchange
            {
                let (grant, draft) = appB(at: time)
                let outcome = try await store.exchangeDeviceSecret(digest, claim: claim, grant: grant, issuing: draft, at: time)
                #expect(try await store.grant(id: grant.id) == nil)
                #expect(try await store.accessTokenStatus(tokenID: draft.accessTokenID, at: time) == .unknown)
                return outcome
            }
            #expect(try await attempt(SecretToken().digest, claim, at: seconds(10)) == .unknown)
            for wrong in [
                DeviceSessionClaim(sid: "sid-2", userID: "alice", group: "example-merchant", scope: "openid"),
                DeviceSessionClaim(sid: "sid-1", userID: "bob", group: "example-merchant", scope: "openid"),
                DeviceSessionClaim(sid: "sid-1", userID: "alice", group: "other-merchant", scope: "openid"),
                DeviceSessionClaim(sid: "sid-1", userID: "alice", group: "example-merchant", scope: "openid email"),
            ] {
                #expect(try await attempt(secret.digest, wrong, at: seconds(10)) == .mismatch(session(secret)))
            }
            #expect(try await attempt(secret.digest, claim, at: seconds(3600)) == .expired)
            #expect(try await store.endDeviceSession(sid: "sid-1", at: seconds(20)))
            #expect(try await attempt(secret.digest, claim, at: seconds(30)) == .ended)
        }
    }

    static let revocationIsLimitedToTheGroup = StoreContractCheck(
        "device sso: revocation ends a session of the revoking client's group only, once"
    ) { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            try await store.createDeviceSession(session(secret))
            #expect(try await store.endDeviceSession(secret.digest, group: "other-merchant", at: seconds(1)) == false)
            #expect(try await store.endDeviceSession(secret.digest, group: "example-merchant", at: seconds(2)))
            #expect(try await store.endDeviceSession(secret.digest, group: "example-merchant", at: seconds(3)) == false)
            let (grant, draft) = appB()
            #expect(try await store.exchangeDeviceSecret(secret.digest, claim: claim, grant: grant, issuing: draft, at: seconds(10)) == .ended)
        }
    }

    static let endingTheUsersSessionsEndsTheirDevices = StoreContractCheck(
        "device sso: ending a user's sessions (logout, password change) ends their device sessions, not others'"
    ) { kind in
        try await withStore(kind) { store in
            let alice = SecretToken()
            let bob = SecretToken()
            try await store.createDeviceSession(session(alice))
            try await store.createDeviceSession(session(bob, sid: "sid-bob", user: "bob"))
            try await store.endSessions(userID: "alice", at: seconds(5))
            let (grant, draft) = appB()
            #expect(try await store.exchangeDeviceSecret(alice.digest, claim: claim, grant: grant, issuing: draft, at: seconds(10)) == .ended)
            let bobClaim = DeviceSessionClaim(sid: "sid-bob", userID: "bob", group: "example-merchant", scope: "openid")
            let (bobGrant, bobDraft) = appB()
            var bobsGrant = bobGrant
            bobsGrant.userID = "bob"
            let outcome = try await store.exchangeDeviceSecret(bob.digest, claim: bobClaim, grant: bobsGrant, issuing: bobDraft, at: seconds(10))
            #expect(outcome == .exchanged(session(bob, sid: "sid-bob", user: "bob")))
            try await store.saveUser(UserRecord(id: "bob", signInName: "bob", passwordHash: "old"))
            _ = try await store.changePassword(userID: "bob", passwordHash: "new", at: seconds(20))
            let (again, againDraft) = appB(at: seconds(30))
            var bobsAgain = again
            bobsAgain.userID = "bob"
            #expect(try await store.exchangeDeviceSecret(bob.digest, claim: bobClaim, grant: bobsAgain, issuing: againDraft, at: seconds(30)) == .ended)
        }
    }

    static let all = [
        aLiveSessionIsExchangedInOneCall, aRefusedExchangeRecordsNothing, revocationIsLimitedToTheGroup,
        endingTheUsersSessionsEndsTheirDevices,
    ]
}
