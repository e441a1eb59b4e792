import BridgeStore
import Foundation
import Testing

/// Store contract: the authorize flow's steps, each one store call that reads the session, user and consent and,
/// when the request can finish, creates the grant and the code.
enum AuthorizationStepContract {
    static let alice = UserRecord(id: "alice", signInName: "alice@example.com", friendlyName: "Alice", passwordHash: "h")

    static func request(
        _ id: String = "interaction-1", consent: AuthorizationTerms.Consent = .remembered, signInAfter: Date? = nil,
        maxAge: Int? = nil, scope: String = "wopi"
    ) -> PendingAuthorizationRecord {
        PendingAuthorizationRecord(
            digest: TokenDigest(of: id), clientID: "office", browserDigest: TokenDigest(of: "browser"),
            csrfDigest: TokenDigest(of: "csrf"), payload: "{}",
            terms: AuthorizationTerms(
                redirectURI: "https://localhost", scope: scope, codeChallenge: "challenge", codeChallengeMethod: "S256",
                sessionContext: "sc", consent: consent, signInAfter: signInAfter, maxAgeSeconds: maxAge),
            createdAt: seconds(10), expiresAt: seconds(600))
    }

    static func issue(_ code: String = "code-1") -> CodeIssue {
        CodeIssue(codeDigest: TokenDigest(of: code), grantID: GrantID("grant-" + code), codeExpiresAt: seconds(100))
    }

    /// Alice with a browser session created at `signedInAt`.
    static func signedIn(_ store: any Store, at signedInAt: Date = seconds(5)) async throws -> TokenDigest {
        try await store.saveUser(alice)
        let session = TokenDigest(of: "session-\(signedInAt.timeIntervalSince1970)")
        try await store.createSession(
            SessionRecord(digest: session, userID: alice.id, createdAt: signedInAt, expiresAt: seconds(3600)))
        return session
    }

    static let signedInWithConsentIssuesTheCodeAndParksNothing = StoreContractCheck(
        "authorization steps: a signed-in user who consented before gets the code in one call, nothing parked"
    ) { kind in
        try await withStore(kind) { store in
            let session = try await signedIn(store)
            try await store.saveConsent(ConsentRecord(userID: "alice", clientID: "office", scope: "wopi profile", grantedAt: t0))
            let before = store.roundTrips
            let progress = try await store.startAuthorization(
                request(), session: session, issue: issue(), park: true, at: seconds(20))
            #expect(store.roundTrips - before == 1)
            guard case .issued(let grant, let code, let user) = progress else {
                Issue.record("expected a code, got \(progress)")
                return
            }
            #expect(user == alice)
            #expect(grant == GrantRecord(
                id: GrantID("grant-code-1"), userID: "alice", clientID: "office", scope: "wopi", sessionContext: "sc",
                createdAt: seconds(20)))
            #expect(code == AuthorizationCodeRecord(
                digest: TokenDigest(of: "code-1"), grantID: grant.id, clientID: "office", redirectURI: "https://localhost",
                codeChallenge: "challenge", codeChallengeMethod: "S256", scope: "wopi", issuedAt: seconds(20),
                expiresAt: seconds(100), authTime: seconds(5)))  // the session's sign-in, for the ID token
            #expect(try await store.grant(id: grant.id) == grant)
            #expect(try await store.redeemAuthorizationCode(TokenDigest(of: "code-1"), at: seconds(21)) == .redeemed(code, grant))
            #expect(try await store.pendingAuthorization(request().digest, at: seconds(21)) == nil)
        }
    }

    static let withoutASessionTheRequestIsParkedForSignIn = StoreContractCheck(
        "authorization steps: without a usable session the request is parked (or not, for prompt=none)"
    ) { kind in
        try await withStore(kind) { store in
            let progress = try await store.startAuthorization(request(), session: nil, issue: issue(), park: true, at: seconds(20))
            #expect(progress == .needsSignIn)
            #expect(try await store.pendingAuthorization(request().digest, at: seconds(21)) == request())
            // An unknown session is no session; prompt=none parks nothing.
            let other = request("interaction-2")
            #expect(try await store.startAuthorization(
                other, session: TokenDigest(of: "nobody"), issue: issue("code-2"), park: false, at: seconds(20)) == .needsSignIn)
            #expect(try await store.pendingAuthorization(other.digest, at: seconds(21)) == nil)
            #expect(try await store.grant(id: GrantID("grant-code-1")) == nil)
        }
    }

    static let promptLoginAndMaxAgeRefuseAnOlderSession = StoreContractCheck(
        "authorization steps: prompt=login and max_age count only a recent enough sign-in"
    ) { kind in
        try await withStore(kind) { store in
            let session = try await signedIn(store, at: seconds(5))
            try await store.saveConsent(ConsentRecord(userID: "alice", clientID: "office", scope: "wopi", grantedAt: t0))
            #expect(try await store.startAuthorization(
                request("login", signInAfter: seconds(10)), session: session, issue: issue("a"), park: true,
                at: seconds(20)) == .needsSignIn)
            #expect(try await store.startAuthorization(
                request("max-age", maxAge: 10), session: session, issue: issue("b"), park: true, at: seconds(20))
                == .needsSignIn)
            guard case .issued = try await store.startAuthorization(
                request("max-age-ok", maxAge: 15), session: session, issue: issue("c"), park: true, at: seconds(20))
            else {
                Issue.record("a sign-in 15 s old satisfies max_age=15")
                return
            }
        }
    }

    static let consentIsAskedUnlessRememberedOrNotNeeded = StoreContractCheck(
        "authorization steps: consent is asked for new scopes and prompt=consent, never for first-party clients"
    ) { kind in
        try await withStore(kind) { store in
            let session = try await signedIn(store)
            try await store.saveConsent(ConsentRecord(userID: "alice", clientID: "office", scope: "wopi", grantedAt: t0))
            #expect(try await store.startAuthorization(
                request("wider", scope: "wopi profile"), session: session, issue: issue("a"), park: true, at: seconds(20))
                == .needsConsent(alice))
            #expect(try await store.startAuthorization(
                request("again", consent: .always), session: session, issue: issue("b"), park: true, at: seconds(20))
                == .needsConsent(alice))
            guard case .issued = try await store.startAuthorization(
                request("first-party", consent: .notNeeded, scope: "anything"), session: session, issue: issue("c"),
                park: true, at: seconds(20))
            else {
                Issue.record("a first-party client needs no consent")
                return
            }
        }
    }

    static let continuingChecksTheBrowserThenConsentsAndIssuesOnce = StoreContractCheck(
        "authorization steps: continuing checks the browser, records consent, issues once and removes the request"
    ) { kind in
        try await withStore(kind) { store in
            let parked = request(consent: .always, scope: "wopi profile")
            #expect(try await store.startAuthorization(parked, session: nil, issue: issue(), park: true, at: seconds(20)) == .needsSignIn)
            let session = try await signedIn(store)
            #expect(try await store.continueAuthorization(
                parked.digest, browser: TokenDigest(of: "another browser"), session: session, consent: true, issue: issue(),
                at: seconds(21)) == .otherBrowser(parked))
            #expect(try await store.consent(userID: "alice", clientID: "office") == nil)
            #expect(try await store.continueAuthorization(
                parked.digest, browser: parked.browserDigest, session: session, consent: false, issue: issue(),
                at: seconds(22)) == .progress(parked, .needsConsent(alice)))
            let before = store.roundTrips
            let allowed = try await store.continueAuthorization(
                parked.digest, browser: parked.browserDigest, session: session, consent: true, issue: issue(),
                at: seconds(23))
            #expect(store.roundTrips - before == 1)
            guard case .progress(parked, .issued(let grant, _, alice)) = allowed else {
                Issue.record("expected a code after consent, got \(allowed)")
                return
            }
            #expect(grant.scope == "wopi profile")
            #expect(try await store.consent(userID: "alice", clientID: "office")?.scopes == ["wopi", "profile"])
            #expect(try await store.continueAuthorization(
                parked.digest, browser: parked.browserDigest, session: session, consent: true, issue: issue("again"),
                at: seconds(24)) == .unknown)
            #expect(try await store.continueAuthorization(
                TokenDigest(of: "never"), browser: parked.browserDigest, session: session, consent: false,
                issue: issue("x"), at: seconds(24)) == .unknown)
        }
    }

    static let concurrentContinuationsIssueOneCode = StoreContractCheck(
        "authorization steps: concurrent continuations of one request issue exactly one code"
    ) { kind in
        try await withStore(kind) { store in
            let parked = request(consent: .notNeeded)
            _ = try await store.startAuthorization(parked, session: nil, issue: issue(), park: true, at: seconds(20))
            let session = try await signedIn(store)
            let issued = try await withThrowingTaskGroup(of: Bool.self) { group in
                for attempt in 0..<8 {
                    group.addTask {
                        let answer = try await store.continueAuthorization(
                            parked.digest, browser: parked.browserDigest, session: session, consent: false,
                            issue: issue("code-\(attempt)"), at: seconds(21))
                        if case .progress(_, .issued) = answer { return true }
                        return false
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(issued == 1)
        }
    }

    static let signInIsPreparedInOneReadAndCompletedInOneWrite = StoreContractCheck(
        "authorization steps: a sign-in reads request, account and failures in one call and writes in one"
    ) { kind in
        try await withStore(kind) { store in
            try await store.saveUser(alice)
            let parked = request()
            try await store.savePendingAuthorization(parked)
            try await store.recordSignInFailure(keys: ["account:alice@example.com", "address:192.0.2.1"], at: seconds(1))
            try await store.recordSignInFailure(keys: ["account:alice@example.com"], at: seconds(30))
            let before = store.roundTrips
            let prepared = try await store.prepareSignIn(
                interaction: parked.digest, signInName: "ALICE@example.com",
                throttleKeys: ["account:alice@example.com", "address:192.0.2.1", "address:192.0.2.2"],
                failuresSince: seconds(10), at: seconds(40))
            #expect(store.roundTrips - before == 1)
            #expect(prepared == SignInPreparation(
                pending: parked, user: alice,
                failures: ["account:alice@example.com": 1, "address:192.0.2.1": 0, "address:192.0.2.2": 0]))
            let unknown = try await store.prepareSignIn(
                interaction: TokenDigest(of: "gone"), signInName: "nobody", throttleKeys: [], failuresSince: t0,
                at: seconds(40))
            #expect(unknown == SignInPreparation(pending: nil, user: nil, failures: [:]))

            let session = SessionRecord(digest: TokenDigest(of: "s"), userID: "alice", createdAt: seconds(41), expiresAt: seconds(900))
            try await store.completeSignIn(session, clearingFailuresOf: "account:alice@example.com")
            #expect(try await store.activeSession(session.digest, at: seconds(42)) == session)
            #expect(try await store.signInFailureCounts(keys: ["account:alice@example.com", "address:192.0.2.1"], since: t0)
                == ["account:alice@example.com": 0, "address:192.0.2.1": 1])
        }
    }

    static let all: [StoreContractCheck] = [
        signedInWithConsentIssuesTheCodeAndParksNothing,
        withoutASessionTheRequestIsParkedForSignIn,
        promptLoginAndMaxAgeRefuseAnOlderSession,
        consentIsAskedUnlessRememberedOrNotNeeded,
        continuingChecksTheBrowserThenConsentsAndIssuesOnce,
        concurrentContinuationsIssueOneCode,
        signInIsPreparedInOneReadAndCompletedInOneWrite,
    ]
}
