import BridgeStore
import Foundation
import Testing

/// Store contract: upstream login attempts (single-use `state`), linked identities (never matched by email unless
/// the caller passes a verified one), and broker sessions bound to a PKCE challenge.
enum UpstreamContract {
    static func login(_ state: SecretToken, broker: SecretToken? = nil, expiresAt: Date = seconds(600))
        -> UpstreamLoginRecord
    {
        UpstreamLoginRecord(
            stateDigest: state.digest, upstreamID: "idp", nonceDigest: SecretToken().digest, codeVerifier: "verifier",
            interactionID: broker == nil ? "interaction" : nil, browserDigest: broker == nil ? SecretToken().digest : nil,
            brokerSessionID: broker?.value, createdAt: t0, expiresAt: expiresAt)
    }

    static func identity(_ subject: String, verifiedEmail: String? = nil) -> UpstreamIdentity {
        UpstreamIdentity(
            upstreamID: "idp", subject: subject,
            newUser: UserRecord(
                id: "idp-\(subject)", signInName: "idp:\(subject)", friendlyName: "Upstream \(subject)",
                email: "\(subject)@upstream.example", phoneNumber: "+4712345678"),
            verifiedEmail: verifiedEmail)
    }

    static func broker(_ secret: SecretToken, challenge: String = "challenge", expiresAt: Date = seconds(300))
        -> BrokerSessionRecord
    {
        BrokerSessionRecord(
            digest: secret.digest, upstreamID: "idp", clientID: "app", redirectURI: "com.example.app://auth",
            codeChallenge: challenge, createdAt: t0, expiresAt: expiresAt)
    }

    /// The app's redemption of a broker session of `broker(_:)`, with a new access token in a new grant.
    static func claim(
        _ session: TokenDigest, challenge: String = "challenge", upstream: String = "idp", client: String = "app"
    ) -> BrokerSessionClaim {
        BrokerSessionClaim(
            session: session, codeChallenge: challenge, upstreamID: upstream, clientID: client, scope: "openid profile",
            access: AccessTokenRecord(
                tokenID: UUID().uuidString, grantID: .generate(), issuedAt: t0, expiresAt: seconds(3600)))
    }

    static let stateIsTakenOnce = StoreContractCheck("upstream: stateIsTakenOnce") { kind in
        try await withStore(kind) { store in
            let state = SecretToken()
            let record = login(state)
            try await store.startUpstreamLogin(record, broker: nil)
            var taken = record
            taken.usedAt = seconds(10)
            #expect(try await store.takeUpstreamLogin(state: state.digest, at: seconds(10)) == .taken(taken, broker: nil))
            #expect(try await store.takeUpstreamLogin(state: state.digest, at: seconds(11)) == .replayed)
            #expect(try await store.takeUpstreamLogin(state: SecretToken().digest, at: seconds(11)) == .unknown)
        }
    }

    static let stateExpires = StoreContractCheck("upstream: stateExpires") { kind in
        try await withStore(kind) { store in
            let state = SecretToken()
            try await store.startUpstreamLogin(login(state, expiresAt: seconds(600)), broker: nil)
            #expect(try await store.takeUpstreamLogin(state: state.digest, at: seconds(600)) == .expired)
        }
    }

    static let identityIsCreatedThenLinked = StoreContractCheck("upstream: identityIsCreatedThenLinked") { kind in
        try await withStore(kind) { store in
            let cookie = SecretToken().digest
            let first = try await store.signInUpstream(
                identity("s1"), end: .browserSession(digest: cookie, expiresAt: seconds(100)), at: seconds(1))
            #expect(first.how == .created && first.ended)
            #expect(first.user == identity("s1").newUser)
            #expect(try await store.user(id: "idp-s1") == identity("s1").newUser)
            #expect(try await store.activeSession(cookie, at: seconds(2))?.userID == "idp-s1")
            var again = identity("s1")
            again.newUser.id = "would-be-a-duplicate"
            let second = try await store.signInUpstream(
                again, end: .browserSession(digest: SecretToken().digest, expiresAt: seconds(100)), at: seconds(3))
            #expect(second.how == .linked && second.user.id == "idp-s1")
            #expect(
                try await store.linkedIdentities(userID: "idp-s1")
                    == [LinkedIdentityRecord(upstreamID: "idp", subject: "s1", userID: "idp-s1", linkedAt: seconds(1))])
        }
    }

    static let emailLinksOnlyWhenVerifiedAndUnique = StoreContractCheck(
        "upstream: emailLinksOnlyWhenVerifiedAndUnique"
    ) { kind in
        try await withStore(kind) { store in
            try await store.saveUser(UserRecord(id: "alice", signInName: "alice", email: "Alice@Example.com"))
            // Verified: linked to alice (the email compared without case).
            let linked = try await store.signInUpstream(
                identity("s3", verifiedEmail: "alice@example.com"),
                end: .browserSession(digest: SecretToken().digest, expiresAt: seconds(100)), at: seconds(2))
            #expect(linked.how == .linkedByEmail && linked.user.id == "alice")
            #expect(try await store.linkedIdentities(userID: "alice").map(\.subject) == ["s3"])
            // The same email, not passed as verified: a new user, never the local one.
            var unverified = identity("s2")
            unverified.newUser.email = "alice@example.com"
            let created = try await store.signInUpstream(
                unverified, end: .browserSession(digest: SecretToken().digest, expiresAt: seconds(100)), at: seconds(3))
            #expect(created.how == .created && created.user.id == "idp-s2")
            // Two users with one email: no guess, a new user.
            try await store.saveUser(UserRecord(id: "bob", signInName: "bob", email: "twin@example.com"))
            try await store.saveUser(UserRecord(id: "bob2", signInName: "bob2", email: "twin@example.com"))
            let twin = try await store.signInUpstream(
                identity("s4", verifiedEmail: "twin@example.com"),
                end: .browserSession(digest: SecretToken().digest, expiresAt: seconds(100)), at: seconds(4))
            #expect(twin.how == .created && twin.user.id == "idp-s4")
        }
    }

    static let brokerSessionRedeemsOnceWithTheRightChallenge = StoreContractCheck(
        "upstream: brokerSessionRedeemsOnceWithTheRightChallenge"
    ) { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            let session = broker(secret)
            let state = SecretToken()
            try await store.startUpstreamLogin(login(state, broker: secret), broker: session)
            // The callback's take gives the session with it, for its deep link.
            guard case .taken(let taken, let withSession) = try await store.takeUpstreamLogin(state: state.digest, at: seconds(4))
            else { Issue.record("the login was not taken"); return }
            #expect(taken.brokerSessionID == secret.value && withSession == session)
            // Before the upstream login finished: pending, and not used up.
            #expect(try await store.redeemBrokerSession(claim(secret.digest), at: seconds(5)) == .pending)
            let completion = SecretToken()
            let signedIn = try await store.signInUpstream(
                identity("s5"), end: .brokerSession(secret.digest, completion: completion.digest), at: seconds(10))
            #expect(signedIn.ended)
            // Completed, the session answers only to the deep link's secret, not to the id /login gave.
            #expect(try await store.redeemBrokerSession(claim(secret.digest), at: seconds(15)) == .unknown)
            var redeemed = session
            redeemed.digest = completion.digest
            redeemed.userID = "idp-s5"
            redeemed.completedAt = seconds(10)
            redeemed.redeemedAt = seconds(20)
            let redemption = claim(completion.digest)
            #expect(
                try await store.redeemBrokerSession(redemption, at: seconds(20))
                    == .redeemed(redeemed, identity("s5").newUser, redemption.grant(userID: "idp-s5", at: seconds(20))))
            #expect(
                try await store.redeemBrokerSession(claim(completion.digest), at: seconds(21)) == .replayed)
        }
    }

    static let brokerSessionWrongChallengeBurnsIt = StoreContractCheck(
        "upstream: brokerSessionWrongChallengeBurnsIt"
    ) { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            let completion = SecretToken()
            try await store.startUpstreamLogin(login(SecretToken(), broker: secret), broker: broker(secret))
            _ = try await store.signInUpstream(
                identity("s6"), end: .brokerSession(secret.digest, completion: completion.digest), at: seconds(10))
            #expect(
                try await store.redeemBrokerSession(claim(completion.digest, challenge: "guess"), at: seconds(11)) == .wrongVerifier)
            #expect(
                try await store.redeemBrokerSession(claim(completion.digest), at: seconds(12)) == .replayed)
        }
    }

    static let brokerSessionExpires = StoreContractCheck("upstream: brokerSessionExpires") { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            try await store.startUpstreamLogin(login(SecretToken(), broker: secret), broker: broker(secret))
            // Completing an expired session does nothing; redeeming it is `expired`.
            let late = try await store.signInUpstream(
                identity("s7"), end: .brokerSession(secret.digest, completion: SecretToken().digest), at: seconds(300))
            #expect(!late.ended)
            #expect(try await store.redeemBrokerSession(claim(secret.digest), at: seconds(300)) == .expired)
        }
    }

    /// A failed upstream sign-in ends the session: polling gets the error at once, once, and only with the right
    /// verifier; a session that completed, or already failed, cannot be failed (again).
    static let failedBrokerSessionAnswersItsErrorOnce = StoreContractCheck(
        "upstream: failedBrokerSessionAnswersItsErrorOnce"
    ) { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            try await store.startUpstreamLogin(login(SecretToken(), broker: secret), broker: broker(secret))
            #expect(try await store.redeemBrokerSession(claim(secret.digest), at: seconds(5)) == .pending)
            #expect(try await store.failBrokerSession(secret.digest, failure: "access_denied", at: seconds(6)))
            #expect(try await !store.failBrokerSession(secret.digest, failure: "server_error", at: seconds(6)))
            // No completion after a failure: the sign-in that failed cannot also succeed.
            let late = try await store.signInUpstream(
                identity("s8"), end: .brokerSession(secret.digest, completion: SecretToken().digest), at: seconds(7))
            #expect(!late.ended)
            #expect(
                try await store.redeemBrokerSession(claim(secret.digest), at: seconds(8))
                    == .failed("access_denied"))
            #expect(try await store.redeemBrokerSession(claim(secret.digest), at: seconds(9)) == .replayed)
            // Unknown and expired sessions are left alone.
            #expect(try await !store.failBrokerSession(SecretToken().digest, failure: "access_denied", at: seconds(9)))
            let old = SecretToken()
            try await store.startUpstreamLogin(login(SecretToken(), broker: old), broker: broker(old))
            #expect(try await !store.failBrokerSession(old.digest, failure: "access_denied", at: seconds(300)))
        }
    }

    static let concurrentTakesOfOneStateGiveOne = StoreContractCheck("upstream: concurrentTakesOfOneStateGiveOne") { kind in
        try await withStore(kind) { store in
            let state = SecretToken()
            try await store.startUpstreamLogin(login(state), broker: nil)
            let results = try await withThrowingTaskGroup(of: UpstreamLoginTaking.self) { group in
                for _ in 0..<8 { group.addTask { try await store.takeUpstreamLogin(state: state.digest, at: seconds(5)) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { if case .taken = $0 { true } else { false } }.count == 1)
            #expect(results.filter { $0 == .replayed }.count == 7)
        }
    }

    static let all: [StoreContractCheck] = [
        stateIsTakenOnce, stateExpires, identityIsCreatedThenLinked, emailLinksOnlyWhenVerifiedAndUnique,
        brokerSessionRedeemsOnceWithTheRightChallenge, brokerSessionWrongChallengeBurnsIt, brokerSessionExpires,
        failedBrokerSessionAnswersItsErrorOnce,
        concurrentTakesOfOneStateGiveOne,
    ]
}
