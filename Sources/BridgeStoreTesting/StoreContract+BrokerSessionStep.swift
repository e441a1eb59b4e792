import BridgeStore
import Foundation
import Testing

/// Store contract: the broker's `POST …/session` as one step: the session taken, the user's grant created and the
/// access token recorded, all or nothing.
enum BrokerSessionStepContract {
    typealias Upstream = UpstreamContract

    /// A broker session whose upstream sign-in finished for `subject` (at 10 s); the digest of its deep link's id.
    static func completedSession(in store: any Store, subject: String, expiresAt: Date = seconds(300)) async throws -> TokenDigest {
        let secret = SecretToken()
        let completion = SecretToken()
        try await store.startUpstreamLogin(
            Upstream.login(SecretToken(), broker: secret), broker: Upstream.broker(secret, expiresAt: expiresAt))
        _ = try await store.signInUpstream(
            Upstream.identity(subject), end: .brokerSession(secret.digest, completion: completion.digest), at: seconds(10))
        return completion.digest
    }

    /// Neither the claim's grant nor its access token exists.
    static func expectNothingIssued(for claim: BrokerSessionClaim, in store: any Store) async throws {
        #expect(try await store.grant(id: claim.access.grantID) == nil)
        #expect(try await store.accessTokenStatus(tokenID: claim.access.tokenID, at: seconds(30)) == .unknown)
    }

    static let redemptionCreatesTheGrantAndTokenInOneCall = StoreContractCheck(
        "broker session step: the redemption creates the user's grant and records the access token, in one call"
    ) { kind in
        try await withStore(kind) { store in
            let session = try await completedSession(in: store, subject: "b1")
            let claim = Upstream.claim(session)
            let before = store.roundTrips
            let redemption = try await store.redeemBrokerSession(claim, at: seconds(20))
            #expect(store.roundTrips - before == 1)
            guard case .redeemed(let record, let user, let grant) = redemption else {
                Issue.record("not redeemed: \(redemption)")
                return
            }
            #expect(record.redeemedAt == seconds(20) && user.id == "idp-b1")
            #expect(grant == GrantRecord(id: claim.access.grantID, userID: "idp-b1", clientID: "app", scope: "openid profile", createdAt: seconds(20)))
            #expect(try await store.grant(id: grant.id) == grant)
            #expect(try await store.accessTokenStatus(tokenID: claim.access.tokenID, at: seconds(30)) == .active(claim.access, grant))
        }
    }

    static let aSessionOfAnotherProviderOrClientIsBurntAndIssuesNothing = StoreContractCheck(
        "broker session step: a finished session claimed for another provider or client is burnt, nothing issued"
    ) { kind in
        try await withStore(kind) { store in
            for claimed in [(upstream: "other-idp", client: "app"), (upstream: "idp", client: "other-app")] {
                let session = try await completedSession(in: store, subject: "b2-\(claimed.client)")
                let claim = Upstream.claim(session, upstream: claimed.upstream, client: claimed.client)
                #expect(try await store.redeemBrokerSession(claim, at: seconds(20)) == .misdirected)
                try await expectNothingIssued(for: claim, in: store)
                #expect(try await store.redeemBrokerSession(Upstream.claim(session), at: seconds(21)) == .replayed)
            }
        }
    }

    static let everyRefusalIssuesNothing = StoreContractCheck(
        "broker session step: pending, failed, wrong verifier, replayed, expired and unknown sessions issue nothing"
    ) { kind in
        try await withStore(kind) { store in
            let pending = SecretToken()
            try await store.startUpstreamLogin(Upstream.login(SecretToken(), broker: pending), broker: Upstream.broker(pending))
            let failed = SecretToken()
            try await store.startUpstreamLogin(Upstream.login(SecretToken(), broker: failed), broker: Upstream.broker(failed))
            _ = try await store.failBrokerSession(failed.digest, failure: "access_denied", at: seconds(5))
            let guessed = try await completedSession(in: store, subject: "b3")
            let late = try await completedSession(in: store, subject: "b4", expiresAt: seconds(20))
            let used = try await completedSession(in: store, subject: "b5")
            _ = try await store.redeemBrokerSession(Upstream.claim(used), at: seconds(15))
            let cases: [(BrokerSessionClaim, BrokerSessionRedemption)] = [
                (Upstream.claim(pending.digest), .pending), (Upstream.claim(failed.digest), .failed("access_denied")),
                (Upstream.claim(guessed, challenge: "guess"), .wrongVerifier), (Upstream.claim(late), .expired),
                (Upstream.claim(used), .replayed), (Upstream.claim(SecretToken().digest), .unknown),
            ]
            for (claim, refusal) in cases {
                #expect(try await store.redeemBrokerSession(claim, at: seconds(20)) == refusal)
                try await expectNothingIssued(for: claim, in: store)
            }
        }
    }

    static let aFailedRecordLeavesTheSessionUntaken = StoreContractCheck(
        "broker session step: when the access token cannot be recorded the session stays redeemable"
    ) { kind in
        try await withStore(kind) { store in
            let session = try await completedSession(in: store, subject: "b6")
            let existing = try await makeGrant(in: store)
            try await store.recordAccessToken(NewGrantStepContract.token("taken", in: existing.id))
            var claim = Upstream.claim(session)
            claim.access.tokenID = "taken"
            await #expect(throws: StoreError.duplicate(what: "access token taken")) {
                try await store.redeemBrokerSession(claim, at: seconds(20))
            }
            #expect(try await store.grant(id: claim.access.grantID) == nil)
            guard case .redeemed = try await store.redeemBrokerSession(Upstream.claim(session), at: seconds(21)) else {
                Issue.record("the session was taken by the failed step")
                return
            }
        }
    }

    static let concurrentRedemptionsIssueOnce = StoreContractCheck(
        "broker session step: of concurrent redemptions of one session, one gets a grant and a token"
    ) { kind in
        try await withStore(kind) { store in
            let session = try await completedSession(in: store, subject: "b7")
            let claims = (0..<8).map { _ in Upstream.claim(session) }
            let answers = try await withThrowingTaskGroup(of: BrokerSessionRedemption.self) { group in
                for claim in claims { group.addTask { try await store.redeemBrokerSession(claim, at: seconds(20)) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { if case .redeemed = $0 { true } else { false } }.count == 1)
            #expect(answers.filter { $0 == .replayed }.count == 7)
            var issued = 0
            for claim in claims where try await store.grant(id: claim.access.grantID) != nil { issued += 1 }
            #expect(issued == 1)
        }
    }

    static let all: [StoreContractCheck] = [
        redemptionCreatesTheGrantAndTokenInOneCall,
        aSessionOfAnotherProviderOrClientIsBurntAndIssuesNothing,
        everyRefusalIssuesNothing,
        aFailedRecordLeavesTheSessionUntaken,
        concurrentRedemptionsIssueOnce,
    ]
}
