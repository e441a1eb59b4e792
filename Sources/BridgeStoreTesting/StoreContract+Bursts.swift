import BridgeStore
import Foundation
import Testing

/// Many writes at once, as under load: a store may group them (the SQLite store's group commit), but every caller
/// must get exactly the answer it would have had alone, and one faulty record must not cost its neighbours theirs.
/// Store contract: bursts of concurrent writes.
enum BurstContract {
    static let aBurstOfRedemptionsAnswersEachCodeOnItsOwn = StoreContractCheck(
        "bursts of concurrent writes: aBurstOfRedemptionsAnswersEachCodeOnItsOwn"
    ) { kind in
        try await withStore(kind) { store in
            // A grant per code: a replay revokes its grant, which must not change how other codes are answered.
            var grants: [GrantRecord] = []
            for index in 0..<44 { grants.append(try await makeGrant(in: store, user: "user-\(index)")) }
            let fresh = (0..<40).map { _ in SecretToken() }
            let used = SecretToken()
            let expired = SecretToken()
            let ofRevokedGrant = SecretToken()
            for (index, secret) in fresh.enumerated() {
                try await store.issueAuthorizationCode(SingleUseContract.code(in: grants[index], secret))
            }
            try await store.issueAuthorizationCode(SingleUseContract.code(in: grants[40], used))
            try await store.issueAuthorizationCode(
                SingleUseContract.code(in: grants[41], expired, expiresAt: seconds(5)))
            try await store.issueAuthorizationCode(SingleUseContract.code(in: grants[42], ofRevokedGrant))
            try await store.revokeGrant(grants[42].id, at: seconds(1))
            #expect(try await store.redeemAuthorizationCode(used.digest, at: seconds(2)) != .unknown)

            // Each fresh code twice, plus one of every other case, all at once.
            var attempts: [(label: String, digest: TokenDigest)] = fresh.enumerated().flatMap { index, secret in
                [("fresh-\(index)", secret.digest), ("fresh-\(index)", secret.digest)]
            }
            attempts += [
                ("used", used.digest), ("expired", expired.digest), ("revoked", ofRevokedGrant.digest),
                ("unknown", SecretToken().digest),
            ]
            let outcomes = try await withThrowingTaskGroup(of: (String, CodeRedemption).self) { group in
                for attempt in attempts.shuffled() {
                    group.addTask { (attempt.label, try await store.redeemAuthorizationCode(attempt.digest, at: seconds(10))) }
                }
                return try await group.reduce(into: [String: [CodeRedemption]]()) { $0[$1.0, default: []].append($1.1) }
            }
            for (index, secret) in fresh.enumerated() {
                let pair = outcomes["fresh-\(index)"] ?? []
                // One of the two got the code, the other is a replay (which revokes the grant, as it must).
                #expect(pair.contains(.redeemed(SingleUseContract.code(in: grants[index], secret), grants[index])))
                #expect(pair.contains(.replayed(grants[index].id)))
            }
            #expect(outcomes["used"] == [.replayed(grants[40].id)])
            #expect(outcomes["expired"] == [.expired])
            #expect(outcomes["revoked"] == [.revoked])
            #expect(outcomes["unknown"] == [.unknown])
        }
    }

    static let aFaultyTokenResponseInABurstFailsAlone = StoreContractCheck(
        "bursts of concurrent writes: aFaultyTokenResponseInABurstFailsAlone"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let taken = RefreshTokenRecord(digest: SecretToken().digest, grantID: grant.id, clientID: "office", issuedAt: t0)
            try await store.issueRefreshToken(taken)
            let good = (0..<30).map { index in
                (
                    AccessTokenRecord(tokenID: "jti-\(index)", grantID: grant.id, issuedAt: t0, expiresAt: seconds(300)),
                    RefreshTokenRecord(
                        digest: SecretToken().digest, grantID: grant.id, clientID: "office", scope: "wopi", issuedAt: t0)
                )
            }
            let faulty = AccessTokenRecord(tokenID: "jti-faulty", grantID: grant.id, issuedAt: t0, expiresAt: seconds(300))
            let failures = await withTaskGroup(of: (String, (any Error)?).self) { group in
                for (access, refresh) in good {
                    group.addTask {
                        do { try await store.recordTokenResponse(access: access, refresh: refresh) } catch { return (access.tokenID, error) }
                        return (access.tokenID, nil)
                    }
                }
                group.addTask {
                    do { try await store.recordTokenResponse(access: faulty, refresh: taken) } catch { return ("jti-faulty", error) }
                    return ("jti-faulty", nil)
                }
                return await group.reduce(into: [String: String]()) { failures, answer in
                    if let error = answer.1 { failures[answer.0] = "\(error)" }
                }
            }
            #expect(failures == ["jti-faulty": "\(StoreError.duplicate(what: "refresh token"))"])
            for (access, refresh) in good {
                #expect(try await store.accessTokenStatus(tokenID: access.tokenID, at: seconds(1)) == .active(access, grant))
                #expect(try await store.refreshTokenStatus(refresh.digest, at: seconds(1)) == .active(refresh, grant))
            }
            #expect(try await store.accessTokenStatus(tokenID: "jti-faulty", at: seconds(1)) == .unknown)
        }
    }

    static let aBurstOfRedemptionsWithTokensFailsOnlyTheFaultyOne = StoreContractCheck(
        "bursts of concurrent writes: aBurstOfRedemptionsWithTokensFailsOnlyTheFaultyOne"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let taken = RefreshTokenRecord(digest: SecretToken().digest, grantID: grant.id, clientID: "office", issuedAt: t0)
            try await store.issueRefreshToken(taken)
            let codes = (0..<31).map { _ in SecretToken() }
            for code in codes { try await store.issueAuthorizationCode(SingleUseContract.code(in: grant, code)) }
            // The last code's response reuses a refresh token's digest: its statement must fail, and only its.
            let drafts = codes.indices.map { index in
                TokenResponseDraft(
                    issuedAt: seconds(10), accessTokenID: "jti-\(index)", accessExpiresAt: seconds(310),
                    refreshDigest: index == 30 ? taken.digest : SecretToken().digest, refreshExpiresAt: seconds(900))
            }
            let answers = await withTaskGroup(of: (Int, String).self) { group in
                for index in codes.indices.shuffled() {
                    group.addTask {
                        do {
                            let outcome = try await store.redeemAuthorizationCode(
                                codes[index].digest, at: seconds(10), issuing: drafts[index], sessionContext: nil)
                            return (index, "\(outcome)")
                        } catch { return (index, "error: \(error)") }
                    }
                }
                return await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
            }
            for index in 0..<30 {
                #expect(answers[index] == "\(CodeRedemption.redeemed(SingleUseContract.code(in: grant, codes[index]), grant))")
                let (access, refresh) = drafts[index].records(
                    grant: grant.id, clientID: "office", accessScope: "wopi", refreshScope: "wopi")
                #expect(try await store.accessTokenStatus(tokenID: access.tokenID, at: seconds(11)) == .active(access, grant))
                if let refresh {
                    #expect(try await store.refreshTokenStatus(refresh.digest, at: seconds(11)) == .active(refresh, grant))
                }
            }
            // A duplicate (`StoreError.duplicate`); which record each store names in it is its own choice.
            #expect(answers[30]?.hasPrefix("error: ") == true && answers[30]?.hasSuffix(" already exists") == true)
            // Its code was not consumed: the failed statement wrote nothing.
            #expect(try await store.accessTokenStatus(tokenID: "jti-30", at: seconds(11)) == .unknown)
            #expect(try await store.redeemAuthorizationCode(codes[30].digest, at: seconds(12))
                == .redeemed(SingleUseContract.code(in: grant, codes[30]), grant))
        }
    }

    static let aBurstOfAuthorizeRequestsAnswersEachOnItsOwn = StoreContractCheck(
        "bursts of concurrent writes: aBurstOfAuthorizeRequestsAnswersEachOnItsOwn"
    ) { kind in
        try await withStore(kind) { store in
            typealias Steps = AuthorizationStepContract
            let session = try await Steps.signedIn(store, at: seconds(5))
            try await store.saveConsent(ConsentRecord(userID: "alice", clientID: "office", scope: "wopi", grantedAt: t0))
            // Four kinds at once: consent holds, a wider scope asks consent, an unknown session and a sign-in too
            // old for prompt=login ask to sign in. Each must be answered as if it had come alone.
            enum Kind: CaseIterable { case issued, widerScope, unknownSession, tooOldSignIn }
            let requests = (0..<40).map { index -> (Kind, PendingAuthorizationRecord, TokenDigest) in
                let kind = Kind.allCases[index % 4]
                let id = "burst-\(index)"
                switch kind {
                case .issued: return (kind, Steps.request(id), session)
                case .widerScope: return (kind, Steps.request(id, scope: "wopi profile"), session)
                case .unknownSession: return (kind, Steps.request(id), TokenDigest(of: "nobody"))
                case .tooOldSignIn: return (kind, Steps.request(id, signInAfter: seconds(10)), session)
                }
            }
            let answers = try await withThrowingTaskGroup(of: (Int, AuthorizationProgress).self) { group in
                for index in requests.indices.shuffled() {
                    group.addTask {
                        let (_, pending, session) = requests[index]
                        return (index, try await store.startAuthorization(
                            pending, session: session, issue: Steps.issue("burst-code-\(index)"), park: true,
                            at: seconds(20)))
                    }
                }
                return try await group.reduce(into: [Int: AuthorizationProgress]()) { $0[$1.0] = $1.1 }
            }
            for (index, (kind, pending, _)) in requests.enumerated() {
                let parked = try await store.pendingAuthorization(pending.digest, at: seconds(21))
                switch kind {
                case .issued:
                    let (grant, code) = AuthorizationDecision.issued(
                        pending, user: Steps.alice, issue: Steps.issue("burst-code-\(index)"), authTime: seconds(5),
                        at: seconds(20))
                    #expect(answers[index] == .issued(grant, code, Steps.alice))
                    #expect(parked == nil)
                    #expect(try await store.redeemAuthorizationCode(code.digest, at: seconds(21)) == .redeemed(code, grant))
                case .widerScope:
                    #expect(answers[index] == .needsConsent(Steps.alice))
                    #expect(parked == pending)
                case .unknownSession, .tooOldSignIn:
                    #expect(answers[index] == .needsSignIn)
                    #expect(parked == pending)
                }
            }
        }
    }

    static let all: [StoreContractCheck] = [
        aBurstOfRedemptionsAnswersEachCodeOnItsOwn,
        aFaultyTokenResponseInABurstFailsAlone,
        aBurstOfRedemptionsWithTokensFailsOnlyTheFaultyOne,
        aBurstOfAuthorizeRequestsAnswersEachOnItsOwn,
    ]
}
