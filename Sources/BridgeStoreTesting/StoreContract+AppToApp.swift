import BridgeStore
import Foundation
import Testing

/// Store contract: the app-to-app steps (park a reference, decide once, resume once in the parking browser), and
/// the OpenID Connect data that rides along an authorization (nonce, auth_time, the user's claims).
enum AppToAppContract {
    static let browser = TokenDigest(of: "browser")

    /// A parked request (`SignInContract.pending`, browser "browser") with a reference for client "office".
    static func parked(_ store: any Store, expiresAt: Date = seconds(300)) async throws -> AppToAppRequestRecord {
        let pending = SignInContract.pending()
        try await store.savePendingAuthorization(pending)
        let record = AppToAppRequestRecord(
            referenceDigest: TokenDigest(of: "reference"), interactionDigest: pending.digest, clientID: "office",
            payload: #"{"state":"s"}"#, createdAt: t0, expiresAt: expiresAt)
        try await store.parkAppToApp(record)
        return record
    }

    static let aReferenceIsDecidedOnceAndOnlyForItsClients = StoreContractCheck(
        "app to app: aReferenceIsDecidedOnceAndOnlyForItsClients"
    ) { kind in
        try await withStore(kind) { store in
            let record = try await parked(store)
            let approve = AppToAppDecision.approve(userID: "alice", resume: TokenDigest(of: "resume"))
            #expect(try await store.undecidedAppToApp(record.referenceDigest, at: seconds(1)) == record)
            #expect(try await store.undecidedAppToApp(TokenDigest(of: "nope"), at: seconds(1)) == nil)
            #expect(try await store.decideAppToApp(TokenDigest(of: "nope"), decision: approve, clientIDs: ["office"], at: seconds(1)) == .unknown)
            #expect(try await store.decideAppToApp(record.referenceDigest, decision: approve, clientIDs: ["other"], at: seconds(1)) == .notAllowed)
            guard case .decided(let decided) = try await store.decideAppToApp(
                record.referenceDigest, decision: approve, clientIDs: ["office"], at: seconds(2))
            else { Issue.record("not decided"); return }
            #expect(decided.userID == "alice")
            #expect(decided.resumeDigest == TokenDigest(of: "resume"))
            #expect(decided.decidedAt == seconds(2))
            #expect(try await store.decideAppToApp(record.referenceDigest, decision: .deny, clientIDs: ["office"], at: seconds(3)) == .alreadyDecided)
            #expect(try await store.undecidedAppToApp(record.referenceDigest, at: seconds(3)) == nil)
        }
    }

    static let anExpiredReferenceCannotBeDecided = StoreContractCheck(
        "app to app: anExpiredReferenceCannotBeDecided"
    ) { kind in
        try await withStore(kind) { store in
            let record = try await parked(store, expiresAt: seconds(60))
            #expect(try await store.undecidedAppToApp(record.referenceDigest, at: seconds(60)) == nil)
            #expect(try await store.decideAppToApp(record.referenceDigest, decision: .deny, clientIDs: ["office"], at: seconds(60)) == .expired)
        }
    }

    static let concurrentDecisionsHaveOneWinner = StoreContractCheck(
        "app to app: concurrentDecisionsHaveOneWinner"
    ) { kind in
        try await withStore(kind) { store in
            let record = try await parked(store)
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        let decision = AppToAppDecision.approve(userID: "alice", resume: TokenDigest(of: "resume-\(index)"))
                        let outcome = try await store.decideAppToApp(
                            record.referenceDigest, decision: decision, clientIDs: ["office"], at: seconds(1))
                        if case .decided = outcome { return true }
                        #expect(outcome == .alreadyDecided)
                        return false
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
        }
    }

    static let anApprovedRequestResumesOnceInItsBrowserWithASessionForTheUser = StoreContractCheck(
        "app to app: anApprovedRequestResumesOnceInItsBrowserWithASessionForTheUser"
    ) { kind in
        try await withStore(kind) { store in
            try await store.saveUser(UserRecord(id: "alice", signInName: "alice@example.com"))
            let record = try await parked(store)
            let resume = TokenDigest(of: "resume")
            let session = TokenDigest(of: "session")
            _ = try await store.decideAppToApp(
                record.referenceDigest, decision: .approve(userID: "alice", resume: resume), clientIDs: ["office"],
                at: seconds(1))
            #expect(try await store.resumeAppToApp(TokenDigest(of: "nope"), browser: browser, session: session, sessionExpiresAt: seconds(900), at: seconds(2)) == .unknown)
            #expect(try await store.resumeAppToApp(resume, browser: TokenDigest(of: "other"), session: session, sessionExpiresAt: seconds(900), at: seconds(2)) == .otherBrowser)
            #expect(try await store.resumeAppToApp(resume, browser: nil, session: session, sessionExpiresAt: seconds(900), at: seconds(2)) == .otherBrowser)
            #expect(try await store.activeSession(session, at: seconds(2)) == nil)
            guard case .resumed(let resumed) = try await store.resumeAppToApp(
                resume, browser: browser, session: session, sessionExpiresAt: seconds(900), at: seconds(3))
            else { Issue.record("not resumed"); return }
            #expect(resumed.resumedAt == seconds(3))
            #expect(try await store.activeSession(session, at: seconds(4))?.userID == "alice")
            #expect(try await store.resumeAppToApp(resume, browser: browser, session: TokenDigest(of: "s2"), sessionExpiresAt: seconds(900), at: seconds(5)) == .alreadyUsed)
            #expect(try await store.activeSession(TokenDigest(of: "s2"), at: seconds(6)) == nil)
        }
    }

    static let aDeniedOrExpiredRequestDoesNotResume = StoreContractCheck(
        "app to app: aDeniedOrExpiredRequestDoesNotResume"
    ) { kind in
        try await withStore(kind) { store in
            let record = try await parked(store, expiresAt: seconds(60))
            let resume = TokenDigest(of: "resume")
            _ = try await store.decideAppToApp(
                record.referenceDigest, decision: .approve(userID: "alice", resume: resume), clientIDs: ["office"],
                at: seconds(1))
            #expect(try await store.resumeAppToApp(resume, browser: browser, session: TokenDigest(of: "s"), sessionExpiresAt: seconds(900), at: seconds(60)) == .expired)
        }
    }

    static let codesCarryTheNonceAndSignInTimeAndUsersTheirClaims = StoreContractCheck(
        "app to app: codesCarryTheNonceAndSignInTimeAndUsersTheirClaims"
    ) { kind in
        try await withStore(kind) { store in
            let alice = UserRecord(
                id: "alice", signInName: "alice@example.com", friendlyName: "Alice", passwordHash: "h",
                email: "alice@example.com", phoneNumber: "+4712345678")
            try await store.saveUser(alice)
            #expect(try await store.user(id: "alice") == alice)
            #expect(try await store.user(signInName: "ALICE@example.com") == alice)
            var pending = SignInContract.pending()
            pending.terms.nonce = "n-0S6_WzA2Mj"
            // RFC 9449 §10: dpop_jkt rides along the same way.
            pending.terms.dpopKeyThumbprint = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"
            pending.terms.consent = .notNeeded
            pending.terms.signInAfter = nil
            try await store.savePendingAuthorization(pending)
            #expect(try await store.pendingAuthorization(pending.digest, at: seconds(1))?.terms == pending.terms)
            let session = SessionRecord(digest: TokenDigest(of: "session"), userID: "alice", createdAt: seconds(5), expiresAt: seconds(900))
            try await store.createSession(session)
            let issue = CodeIssue(codeDigest: TokenDigest(of: "code"), codeExpiresAt: seconds(70))
            let continuation = try await store.continueAuthorization(
                pending.digest, browser: browser, session: session.digest, consent: false, issue: issue, at: seconds(10))
            guard case .progress(_, .issued(_, let code, _)) = continuation else {
                Issue.record("not issued: \(continuation)"); return
            }
            #expect(code.nonce == "n-0S6_WzA2Mj")
            #expect(code.dpopKeyThumbprint == pending.terms.dpopKeyThumbprint)
            #expect(code.authTime == seconds(5))
            guard case .redeemed(let redeemed, _) = try await store.redeemAuthorizationCode(
                TokenDigest(of: "code"), at: seconds(11), issuing: nil, sessionContext: nil)
            else { Issue.record("not redeemed"); return }
            #expect(redeemed.nonce == "n-0S6_WzA2Mj")
            #expect(redeemed.dpopKeyThumbprint == pending.terms.dpopKeyThumbprint)
            #expect(redeemed.authTime == seconds(5))
            // The signed-in start (`startAuthorization`) issues its code with them too.
            var started = SignInContract.pending(id: "interaction-2")
            started.terms = pending.terms
            let again = CodeIssue(codeDigest: TokenDigest(of: "code-2"), codeExpiresAt: seconds(70))
            guard case .issued(_, let startedCode, _) = try await store.startAuthorization(
                started, session: session.digest, issue: again, park: true, at: seconds(12))
            else { Issue.record("not issued at start"); return }
            #expect(startedCode.dpopKeyThumbprint == pending.terms.dpopKeyThumbprint)
            guard case .redeemed(let redeemedAgain, _) = try await store.redeemAuthorizationCode(
                TokenDigest(of: "code-2"), at: seconds(13), issuing: nil, sessionContext: nil)
            else { Issue.record("not redeemed at start"); return }
            #expect(redeemedAgain.dpopKeyThumbprint == pending.terms.dpopKeyThumbprint)
        }
    }

    static let all: [StoreContractCheck] = [
        aReferenceIsDecidedOnceAndOnlyForItsClients,
        anExpiredReferenceCannotBeDecided,
        concurrentDecisionsHaveOneWinner,
        anApprovedRequestResumesOnceInItsBrowserWithASessionForTheUser,
        aDeniedOrExpiredRequestDoesNotResume,
        codesCarryTheNonceAndSignInTimeAndUsersTheirClaims,
    ]
}
