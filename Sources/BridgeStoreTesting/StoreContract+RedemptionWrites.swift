import BridgeStore
import Foundation
import Testing

/// Store contract: what a code redemption writes besides its token response (`CodeRedemptionWrites`), a Native SSO
/// device session (draft 07 §3.4.2), is written by the same call and transaction: with the code or not at all.
extension TokenStepContract {
    /// A code granted `scope` to the grant's client, with a sign-in time for the session to copy.
    static func code(in grant: GrantRecord, _ secret: SecretToken, scope: String) -> AuthorizationCodeRecord {
        var code = SingleUseContract.code(in: grant, secret)
        code.scope = scope
        code.authTime = seconds(-5)
        return code
    }

    static func deviceSession(
        client: String = "office", digest: TokenDigest = SecretToken().digest, sid: String = UUID().uuidString
    ) -> DeviceSessionDraft {
        DeviceSessionDraft(
            digest: digest, sid: sid, clientID: client, group: "example-merchant", requiredScope: ["openid", "device_sso"],
            createdAt: seconds(1), expiresAt: seconds(3600))
    }

    /// Whether the store holds a live session `sid` (ending it tells; the caller is done with it).
    static func holdsSession(_ sid: String, in store: any Store) async throws -> Bool {
        try await store.endDeviceSession(sid: sid, at: seconds(2))
    }

    static let redemptionWritesItsDeviceSessionInTheSameCall = StoreContractCheck(
        "token steps: a redemption writes its device session in the same call, with the code's user, scope and auth_time"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let secret = SecretToken()
            let code = code(in: grant, secret, scope: "openid device_sso wopi")
            try await store.issueAuthorizationCode(code)
            let session = deviceSession()
            let before = store.roundTrips
            let redemption = try await store.redeemAuthorizationCode(
                secret.digest, at: seconds(1), issuing: draft("jti-1", at: seconds(1)), sessionContext: nil,
                writes: CodeRedemptionWrites(deviceSession: session))
            #expect(store.roundTrips - before == 1)
            #expect(redemption == .redeemed(code, grant))
            // The session as the exchange reads it back: every field from the draft, the code and its grant.
            let other = GrantRecord(userID: grant.userID, clientID: "app-b", scope: "openid", createdAt: seconds(10))
            let claim = DeviceSessionClaim(sid: session.sid, userID: grant.userID, group: session.group, scope: "openid")
            #expect(try await store.exchangeDeviceSecret(
                session.digest, claim: claim, grant: other, issuing: draft("jti-b", at: seconds(10)), at: seconds(10))
                == .exchanged(session.record(for: code, userID: grant.userID)))
            #expect(session.record(for: code, userID: grant.userID) == DeviceSessionRecord(
                digest: session.digest, sid: session.sid, userID: "alice", clientID: "office", group: "example-merchant",
                scope: "openid device_sso wopi", authTime: seconds(-5), createdAt: seconds(1), expiresAt: seconds(3600)))
            // A replay writes nothing: neither its tokens nor its session.
            let replayed = deviceSession()
            #expect(try await store.redeemAuthorizationCode(
                secret.digest, at: seconds(3), issuing: draft("jti-2", at: seconds(3)), sessionContext: nil,
                writes: CodeRedemptionWrites(deviceSession: replayed)) == .replayed(grant.id))
            #expect(try await holdsSession(replayed.sid, in: store) == false)
        }
    }

    static let aDeviceSessionNeedsItsScopeAndItsClient = StoreContractCheck(
        "token steps: a redemption writes no device session for a code without openid and device_sso, or of another client"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            for (scope, client) in [("openid", "office"), ("device_sso", "office"), ("openid device_sso", "another-app")] {
                let secret = SecretToken()
                let code = code(in: grant, secret, scope: scope)
                try await store.issueAuthorizationCode(code)
                let session = deviceSession(client: client)
                #expect(!session.isWritten(for: code))
                let redemption = try await store.redeemAuthorizationCode(
                    secret.digest, at: seconds(1), issuing: nil, sessionContext: nil,
                    writes: CodeRedemptionWrites(deviceSession: session))
                #expect(redemption == .redeemed(code, grant), "\(scope) for \(client)")
                #expect(try await holdsSession(session.sid, in: store) == false, "\(scope) for \(client)")
            }
        }
    }

    static let aDeviceSessionThatCannotBeWrittenUndoesTheRedemption = StoreContractCheck(
        "token steps: a device session that cannot be written leaves the code unredeemed and its tokens unrecorded"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            // A session of this digest exists already, so the redemption's insert fails (as an outage midway would).
            let taken = SecretToken()
            try await store.createDeviceSession(
                DeviceSessionRecord(
                    digest: taken.digest, sid: "sid-taken", userID: "bob", clientID: "office", group: "example-merchant",
                    scope: "openid device_sso", authTime: nil, createdAt: t0, expiresAt: seconds(3600)))
            let secret = SecretToken()
            let code = code(in: grant, secret, scope: "openid device_sso")
            try await store.issueAuthorizationCode(code)
            await #expect(throws: (any Error).self) {
                _ = try await store.redeemAuthorizationCode(
                    secret.digest, at: seconds(1), issuing: draft("jti-lost", refresh: "r-lost", at: seconds(1)),
                    sessionContext: "sc-lost",
                    writes: CodeRedemptionWrites(deviceSession: deviceSession(digest: taken.digest)))
            }
            #expect(try await store.accessTokenStatus(tokenID: "jti-lost", at: seconds(2)) == .unknown)
            #expect(try await store.refreshTokenStatus(TokenDigest(of: "r-lost"), at: seconds(2)) == .unknown)
            #expect(try await store.grant(id: grant.id)?.sessionContext == grant.sessionContext)
            // The code was not consumed: the retry redeems it, with its session.
            let retry = deviceSession()
            #expect(try await store.redeemAuthorizationCode(
                secret.digest, at: seconds(1), issuing: draft("jti-retry", at: seconds(1)), sessionContext: nil,
                writes: CodeRedemptionWrites(deviceSession: retry)) == .redeemed(code, grant))
            #expect(try await holdsSession(retry.sid, in: store))
        }
    }

    static let concurrentRedemptionsWriteOneDeviceSession = StoreContractCheck(
        "token steps: concurrent redemptions of one code write exactly one device session"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let secret = SecretToken()
            try await store.issueAuthorizationCode(code(in: grant, secret, scope: "openid device_sso"))
            let sessions = (0..<16).map { _ in deviceSession() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for session in sessions {
                    group.addTask {
                        _ = try await store.redeemAuthorizationCode(
                            secret.digest, at: seconds(1), issuing: nil, sessionContext: nil,
                            writes: CodeRedemptionWrites(deviceSession: session))
                    }
                }
                try await group.waitForAll()
            }
            var written = 0
            for session in sessions {
                if try await holdsSession(session.sid, in: store) { written += 1 }
            }
            #expect(written == 1)
        }
    }

    static let redemptionWrites: [StoreContractCheck] = [
        redemptionWritesItsDeviceSessionInTheSameCall, aDeviceSessionNeedsItsScopeAndItsClient,
        aDeviceSessionThatCannotBeWrittenUndoesTheRedemption, concurrentRedemptionsWriteOneDeviceSession,
    ]
}
