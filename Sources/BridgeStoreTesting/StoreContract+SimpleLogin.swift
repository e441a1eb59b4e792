import BridgeStore
import Foundation
import Testing

/// Store contract: Simple Login's approval step (`approveSimpleLogin`): the reference is decided once, its parked
/// request taken, the consent remembered and the code issued, all or nothing.
enum SimpleLoginContract {
    static let issue = CodeIssue(codeDigest: TokenDigest(of: "simple-code"), codeExpiresAt: seconds(70))

    static let anApprovalIssuesTheCodeTakesTheRequestAndRemembersTheConsent = StoreContractCheck(
        "simple login: anApprovalIssuesTheCodeTakesTheRequestAndRemembersTheConsent"
    ) { kind in
        try await withStore(kind) { store in
            try await store.saveUser(UserRecord(id: "alice", signInName: "alice@example.com"))
            let record = try await AppToAppContract.parked(store)
            let pending = SignInContract.pending()
            guard case .issued(let decided, let taken, let grant, let code) = try await store.approveSimpleLogin(
                record.referenceDigest, userID: "alice", clientIDs: ["office"], issue: issue, at: seconds(2))
            else { Issue.record("not issued"); return }
            #expect(decided.decidedAt == seconds(2) && decided.userID == "alice" && decided.resumeDigest == nil)
            #expect(taken == pending)
            #expect(grant.userID == "alice" && grant.clientID == "office" && grant.scope == "wopi")
            // The code is bound as any other: client, redirect URI, PKCE challenge (RFC 7636 §4.4); signed in now.
            #expect(code.redirectURI == "https://localhost" && code.codeChallenge == pending.terms.codeChallenge)
            #expect(code.authTime == seconds(2))
            #expect(try await store.pendingAuthorization(pending.digest, at: seconds(3)) == nil)
            #expect(try await store.consent(userID: "alice", clientID: "office")?.scope == "wopi")
            #expect(try await store.undecidedAppToApp(record.referenceDigest, at: seconds(3)) == nil)
            #expect(
                try await store.approveSimpleLogin(
                    record.referenceDigest, userID: "alice", clientIDs: ["office"],
                    issue: CodeIssue(codeDigest: TokenDigest(of: "second"), codeExpiresAt: seconds(70)), at: seconds(3))
                    == .alreadyDecided)
            guard case .redeemed(let redeemed, _) = try await store.redeemAuthorizationCode(
                issue.codeDigest, at: seconds(4), issuing: nil, sessionContext: nil)
            else { Issue.record("not redeemed"); return }
            #expect(redeemed.grantID == grant.id)
            #expect(try await store.redeemAuthorizationCode(TokenDigest(of: "second"), at: seconds(4), issuing: nil, sessionContext: nil) == .unknown)
        }
    }

    static let aRefusedApprovalChangesNothing = StoreContractCheck(
        "simple login: aRefusedApprovalChangesNothing"
    ) { kind in
        try await withStore(kind) { store in
            try await store.saveUser(UserRecord(id: "alice", signInName: "alice@example.com"))
            // The reference outlives its parked request (600 s) here, to show the request's expiry counts too.
            let record = try await AppToAppContract.parked(store, expiresAt: seconds(900))
            func approve(_ reference: TokenDigest, user: String = "alice", clients: [String] = ["office"], at: Date)
                async throws -> SimpleLoginApproval
            {
                try await store.approveSimpleLogin(reference, userID: user, clientIDs: clients, issue: issue, at: at)
            }
            #expect(try await approve(TokenDigest(of: "nope"), at: seconds(1)) == .unknown)
            #expect(try await approve(record.referenceDigest, clients: ["other"], at: seconds(1)) == .notAllowed)
            #expect(try await approve(record.referenceDigest, user: "mallory", at: seconds(1)) == .unknown)
            #expect(try await approve(record.referenceDigest, at: seconds(700)) == .expired)
            #expect(try await approve(record.referenceDigest, at: seconds(900)) == .expired)
            #expect(try await store.undecidedAppToApp(record.referenceDigest, at: seconds(1)) == record)
            #expect(try await store.pendingAuthorization(SignInContract.pending().digest, at: seconds(1)) != nil)
            #expect(try await store.consent(userID: "alice", clientID: "office") == nil)
            #expect(try await store.redeemAuthorizationCode(issue.codeDigest, at: seconds(2), issuing: nil, sessionContext: nil) == .unknown)
        }
    }

    static let concurrentApprovalsIssueOneCode = StoreContractCheck(
        "simple login: concurrentApprovalsIssueOneCode"
    ) { kind in
        try await withStore(kind) { store in
            try await store.saveUser(UserRecord(id: "alice", signInName: "alice@example.com"))
            let record = try await AppToAppContract.parked(store)
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        let outcome = try await store.approveSimpleLogin(
                            record.referenceDigest, userID: "alice", clientIDs: ["office"],
                            issue: CodeIssue(codeDigest: TokenDigest(of: "code-\(index)"), codeExpiresAt: seconds(70)),
                            at: seconds(1))
                        if case .issued = outcome { return true }
                        #expect(outcome == .alreadyDecided)
                        return false
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
        }
    }

    static let all: [StoreContractCheck] = [
        anApprovalIssuesTheCodeTakesTheRequestAndRemembersTheConsent,
        aRefusedApprovalChangesNothing,
        concurrentApprovalsIssueOneCode,
    ]
}
