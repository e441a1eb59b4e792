import BridgeStore
import Foundation
import Testing

/// Store contract: the authorization challenge endpoint's auth sessions (draft-ietf-oauth-first-party-apps-04
/// §5.3.1) are taken once, only by their client and DPoP key, before they expire; and the host's app's approval of
/// a request the endpoint parked is taken once, creating the approving user's session.
enum AuthSessionContract {
    static func record(_ secret: SecretToken, jkt: String? = nil) -> AuthSessionRecord {
        AuthSessionRecord(
            digest: secret.digest, clientID: "partner-app", interaction: TokenDigest(of: "interaction"),
            browser: TokenDigest(of: "browser"), session: TokenDigest(of: "session"),
            appToAppReference: TokenDigest(of: "reference"), signInName: "demo@example.com", dpopKeyThumbprint: jkt,
            createdAt: t0,
            expiresAt: seconds(60))
    }

    static let anAuthSessionIsTakenOnce = StoreContractCheck("auth sessions: anAuthSessionIsTakenOnce") { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            try await store.saveAuthSession(record(secret))
            let first = try await store.takeAuthSession(secret.digest, clientID: "partner-app", dpopKeyThumbprint: nil, at: seconds(1))
            #expect(first == .taken(record(secret)))
            let replay = try await store.takeAuthSession(secret.digest, clientID: "partner-app", dpopKeyThumbprint: nil, at: seconds(2))
            #expect(replay == .unknown)
        }
    }

    static let onlyItsClientAndKeyTakeIt = StoreContractCheck("auth sessions: onlyItsClientAndKeyTakeIt") { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            try await store.saveAuthSession(record(secret, jkt: "key-a"))
            #expect(try await store.takeAuthSession(secret.digest, clientID: "office", dpopKeyThumbprint: "key-a", at: seconds(1)) == .otherClient)
            #expect(try await store.takeAuthSession(secret.digest, clientID: "partner-app", dpopKeyThumbprint: "key-b", at: seconds(1)) == .otherKey)
            #expect(try await store.takeAuthSession(secret.digest, clientID: "partner-app", dpopKeyThumbprint: nil, at: seconds(1)) == .otherKey)
            // The refusals left it to its rightful holder.
            let taken = try await store.takeAuthSession(secret.digest, clientID: "partner-app", dpopKeyThumbprint: "key-a", at: seconds(1))
            #expect(taken == .taken(record(secret, jkt: "key-a")))
        }
    }

    static let anAuthSessionExpires = StoreContractCheck("auth sessions: anAuthSessionExpires") { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            try await store.saveAuthSession(record(secret))
            #expect(try await store.takeAuthSession(secret.digest, clientID: "partner-app", dpopKeyThumbprint: nil, at: seconds(60)) == .expired)
            #expect(try await store.takeAuthSession(SecretToken().digest, clientID: "partner-app", dpopKeyThumbprint: nil, at: t0) == .unknown)
        }
    }

    static let itsClientIsReadWithoutTakingIt = StoreContractCheck("auth sessions: itsClientIsReadWithoutTakingIt") { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            try await store.saveAuthSession(record(secret))
            #expect(try await store.authSessionClient(secret.digest) == "partner-app")
            #expect(try await store.authSessionClient(SecretToken().digest) == nil)
            let taken = try await store.takeAuthSession(secret.digest, clientID: "partner-app", dpopKeyThumbprint: nil, at: seconds(1))
            #expect(taken == .taken(record(secret)))
            #expect(try await store.authSessionClient(secret.digest) == nil)
        }
    }

    static let racingTakesHaveOneWinner = StoreContractCheck("auth sessions: racingTakesHaveOneWinner") { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            try await store.saveAuthSession(record(secret))
            let outcomes = try await withThrowingTaskGroup(of: AuthSessionTaking.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await store.takeAuthSession(secret.digest, clientID: "partner-app", dpopKeyThumbprint: nil, at: seconds(1))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { if case .taken = $0 { true } else { false } }.count == 1)
            #expect(outcomes.filter { $0 == .unknown }.count == 7)
        }
    }

    static let anApprovalIsTakenOnceWithASession = StoreContractCheck(
        "auth sessions: anApprovalIsTakenOnceWithASession"
    ) { kind in
        try await withStore(kind) { store in
            try await store.saveUser(UserRecord(id: "alice", signInName: "alice@example.com"))
            let parked = try await AppToAppContract.parked(store)
            let interaction = parked.interactionDigest
            let session = TokenDigest(of: "session")
            func take(_ reference: TokenDigest, _ interaction: TokenDigest, at time: Double) async throws -> AppToAppApprovalTaking {
                try await store.takeAppToAppApproval(
                    reference, interaction: interaction, session: session, sessionExpiresAt: seconds(900), at: seconds(time))
            }
            #expect(try await take(parked.referenceDigest, interaction, at: 1) == .undecided)
            _ = try await store.decideAppToApp(
                parked.referenceDigest, decision: .approve(userID: "alice", resume: TokenDigest(of: "resume")),
                clientIDs: ["office"], at: seconds(2))
            #expect(try await take(parked.referenceDigest, TokenDigest(of: "another request"), at: 3) == .gone)
            #expect(try await store.activeSession(session, at: seconds(3)) == nil)
            #expect(try await take(parked.referenceDigest, interaction, at: 3) == .approved(userID: "alice"))
            #expect(try await store.activeSession(session, at: seconds(4))?.userID == "alice")
            #expect(try await take(parked.referenceDigest, interaction, at: 5) == .gone)
        }
    }

    static let aDeniedApprovalIsDenied = StoreContractCheck("auth sessions: aDeniedApprovalIsDenied") { kind in
        try await withStore(kind) { store in
            let parked = try await AppToAppContract.parked(store)
            _ = try await store.decideAppToApp(parked.referenceDigest, decision: .deny, clientIDs: ["office"], at: seconds(1))
            let outcome = try await store.takeAppToAppApproval(
                parked.referenceDigest, interaction: parked.interactionDigest, session: TokenDigest(of: "session"),
                sessionExpiresAt: seconds(900), at: seconds(2))
            #expect(outcome == .denied)
        }
    }

    /// The chain `record(secret)` would be for the parked `request`: its interaction and browser, no session.
    static func chain(_ secret: SecretToken, for request: PendingAuthorizationRecord, session: TokenDigest? = nil)
        -> AuthSessionRecord
    {
        AuthSessionRecord(
            digest: secret.digest, clientID: request.clientID, interaction: request.digest, browser: request.browserDigest,
            session: session, signInName: "alice@example.com", createdAt: t0, expiresAt: seconds(300))
    }

    static let aReadChangesNothing = StoreContractCheck("auth sessions: aReadChangesNothing") { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            try await store.saveAuthSession(record(secret, jkt: "key-a"))
            #expect(try await store.authSession(secret.digest, clientID: "partner-app", dpopKeyThumbprint: "key-a", at: seconds(1)) == .taken(record(secret, jkt: "key-a")))
            #expect(try await store.authSession(secret.digest, clientID: "office", dpopKeyThumbprint: "key-a", at: seconds(1)) == .otherClient)
            #expect(try await store.authSession(secret.digest, clientID: "partner-app", dpopKeyThumbprint: nil, at: seconds(1)) == .otherKey)
            #expect(try await store.authSession(secret.digest, clientID: "partner-app", dpopKeyThumbprint: "key-a", at: seconds(60)) == .expired)
            #expect(try await store.authSession(SecretToken().digest, clientID: "partner-app", dpopKeyThumbprint: nil, at: t0) == .unknown)
            let taken = try await store.takeAuthSession(secret.digest, clientID: "partner-app", dpopKeyThumbprint: "key-a", at: seconds(1))
            #expect(taken == .taken(record(secret, jkt: "key-a")))
        }
    }

    static let aStepTakesContinuesAndSavesTheNextChain = StoreContractCheck(
        "auth sessions: aStepTakesContinuesAndSavesTheNextChain"
    ) { kind in
        try await withStore(kind) { store in
            let parked = AuthorizationStepContract.request(consent: .always)
            #expect(try await store.startAuthorization(
                parked, session: nil, issue: AuthorizationStepContract.issue(), park: true, at: seconds(20)) == .needsSignIn)
            // The first step: nothing to take, the chain saved.
            let first = SecretToken()
            let before = store.roundTrips
            let started = try await store.advanceAuthSession(
                nil, to: chain(first, for: parked), issue: AuthorizationStepContract.issue(), at: seconds(21))
            #expect(store.roundTrips - before == 1)
            #expect(started == .continued(.progress(parked, .needsSignIn)))
            // A later step: the presented chain taken, the request continued with the next one's session.
            let session = try await AuthorizationStepContract.signedIn(store)
            let second = SecretToken()
            let stepped = try await store.advanceAuthSession(
                first.digest, to: chain(second, for: parked, session: session), issue: AuthorizationStepContract.issue(),
                at: seconds(22))
            #expect(stepped == .continued(.progress(parked, .needsConsent(AuthorizationStepContract.alice))))
            #expect(try await store.authSessionClient(first.digest) == nil)
            #expect(try await store.authSessionClient(second.digest) == parked.clientID)
            // A replay of the taken chain is refused and saves nothing.
            let replayed = SecretToken()
            #expect(try await store.advanceAuthSession(
                first.digest, to: chain(replayed, for: parked), issue: AuthorizationStepContract.issue(),
                at: seconds(23)) == .refused(.unknown))
            #expect(try await store.authSessionClient(replayed.digest) == nil)
            // Another client presenting it: refused, and the chain is left to its holder.
            var foreign = chain(SecretToken(), for: parked)
            foreign.clientID = "partner-app"
            #expect(try await store.advanceAuthSession(
                second.digest, to: foreign, issue: AuthorizationStepContract.issue(), at: seconds(23)) == .refused(.otherClient))
            #expect(try await store.authSessionClient(second.digest) == parked.clientID)
        }
    }

    static let aStepThatIssuesSavesNoNextChain = StoreContractCheck(
        "auth sessions: aStepThatIssuesSavesNoNextChain"
    ) { kind in
        try await withStore(kind) { store in
            let parked = AuthorizationStepContract.request(consent: .notNeeded)
            _ = try await store.startAuthorization(
                parked, session: nil, issue: AuthorizationStepContract.issue(), park: true, at: seconds(20))
            let first = SecretToken()
            _ = try await store.advanceAuthSession(
                nil, to: chain(first, for: parked), issue: AuthorizationStepContract.issue(), at: seconds(21))
            let session = try await AuthorizationStepContract.signedIn(store)
            let next = SecretToken()
            let issued = try await store.advanceAuthSession(
                first.digest, to: chain(next, for: parked, session: session), issue: AuthorizationStepContract.issue(),
                at: seconds(22))
            guard case .continued(.progress(parked, .issued(let grant, _, AuthorizationStepContract.alice))) = issued else {
                Issue.record("expected the code, got \(issued)")
                return
            }
            #expect(grant.userID == "alice")
            #expect(try await store.authSessionClient(first.digest) == nil)
            #expect(try await store.authSessionClient(next.digest) == nil)
            // The request is gone: a step on it saves nothing either.
            let late = SecretToken()
            #expect(try await store.advanceAuthSession(
                nil, to: chain(late, for: parked), issue: AuthorizationStepContract.issue("late"), at: seconds(23))
                == .continued(.unknown))
            #expect(try await store.authSessionClient(late.digest) == nil)
        }
    }

    static let all = [
        anAuthSessionIsTakenOnce, onlyItsClientAndKeyTakeIt, anAuthSessionExpires, itsClientIsReadWithoutTakingIt,
        racingTakesHaveOneWinner, anApprovalIsTakenOnceWithASession, aDeniedApprovalIsDenied, aReadChangesNothing,
        aStepTakesContinuesAndSavesTheNextChain, aStepThatIssuesSavesNoNextChain,
    ]
}
