import BridgeStore
import Foundation
import Testing

/// Store contract: pending authorizations, consent, sign-in throttling, user removal.
enum SignInContract {
    static func pending(id: String = "interaction-1", expiresAt: Date = seconds(600)) -> PendingAuthorizationRecord {
        PendingAuthorizationRecord(
            digest: TokenDigest(of: id), clientID: "office", browserDigest: TokenDigest(of: "browser"),
            csrfDigest: TokenDigest(of: "csrf"), payload: #"{"client_id":"office"}"#,
            terms: AuthorizationTerms(
                redirectURI: "https://localhost", scope: "wopi", codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
                codeChallengeMethod: "S256", sessionContext: "sc-1", consent: .always, signInAfter: seconds(1),
                maxAgeSeconds: 3600),
            createdAt: t0, expiresAt: expiresAt)
    }

    static let pendingAuthorizationIsReadUntilItExpiresAndTakenOnce = StoreContractCheck(
        "pending authorizations: pendingAuthorizationIsReadUntilItExpiresAndTakenOnce"
    ) { kind in
        try await withStore(kind) { store in
            let record = pending()
            try await store.savePendingAuthorization(record)
            #expect(try await store.pendingAuthorization(record.digest, at: seconds(10)) == record)
            #expect(try await store.pendingAuthorization(record.digest, at: seconds(600)) == nil)
            #expect(try await store.takePendingAuthorization(record.digest, at: seconds(20)) == record)
            #expect(try await store.takePendingAuthorization(record.digest, at: seconds(21)) == nil)
            #expect(try await store.pendingAuthorization(record.digest, at: seconds(22)) == nil)
        }
    }

    static let expiredPendingAuthorizationCannotBeTaken = StoreContractCheck(
        "pending authorizations: expiredPendingAuthorizationCannotBeTaken"
    ) { kind in
        try await withStore(kind) { store in
            let record = pending(expiresAt: seconds(60))
            try await store.savePendingAuthorization(record)
            #expect(try await store.takePendingAuthorization(record.digest, at: seconds(61)) == nil)
        }
    }

    static let concurrentTakesYieldTheRecordOnce = StoreContractCheck(
        "pending authorizations: concurrentTakesYieldTheRecordOnce"
    ) { kind in
        try await withStore(kind) { store in
            let record = pending()
            try await store.savePendingAuthorization(record)
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 { group.addTask { try await store.takePendingAuthorization(record.digest, at: seconds(1)) != nil } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
        }
    }

    static let consentIsRememberedPerUserAndClientAndReplaced = StoreContractCheck(
        "pending authorizations: consentIsRememberedPerUserAndClientAndReplaced"
    ) { kind in
        try await withStore(kind) { store in
            #expect(try await store.consent(userID: "u-1", clientID: "office") == nil)
            try await store.saveConsent(ConsentRecord(userID: "u-1", clientID: "office", scope: "wopi", grantedAt: t0))
            #expect(try await store.consent(userID: "u-1", clientID: "office")?.scopes == ["wopi"])
            #expect(try await store.consent(userID: "u-1", clientID: "other") == nil)
            #expect(try await store.consent(userID: "u-2", clientID: "office") == nil)
            let wider = ConsentRecord(userID: "u-1", clientID: "office", scope: "wopi files", grantedAt: seconds(5))
            try await store.saveConsent(wider)
            #expect(try await store.consent(userID: "u-1", clientID: "office") == wider)
        }
    }

    static let signInFailuresAreCountedPerKeyWithinTheWindowAndCleared = StoreContractCheck(
        "pending authorizations: signInFailuresAreCountedPerKeyWithinTheWindowAndCleared"
    ) { kind in
        try await withStore(kind) { store in
            let keys = ["account:a@x", "address:203.0.113.9"]
            try await store.recordSignInFailure(keys: keys, at: seconds(0))
            try await store.recordSignInFailure(keys: keys, at: seconds(100))
            try await store.recordSignInFailure(keys: ["address:203.0.113.9"], at: seconds(200))
            #expect(try await store.signInFailureCounts(keys: keys, since: seconds(0)) == ["account:a@x": 2, "address:203.0.113.9": 3])
            #expect(try await store.signInFailureCounts(keys: keys, since: seconds(50)) == ["account:a@x": 1, "address:203.0.113.9": 2])
            try await store.clearSignInFailures(key: "account:a@x")
            #expect(try await store.signInFailureCounts(keys: keys, since: seconds(0)) == ["account:a@x": 0, "address:203.0.113.9": 3])
            #expect(try await store.purgeExpired(before: seconds(150), limit: 100) == 2)
            #expect(try await store.signInFailureCounts(keys: keys, since: seconds(0))["address:203.0.113.9"] == 1)
        }
    }

    static let deletingAUserRemovesItAndItsConsents = StoreContractCheck(
        "pending authorizations: deletingAUserRemovesItAndItsConsents"
    ) { kind in
        try await withStore(kind) { store in
            try await store.saveUser(UserRecord(id: "u-1", signInName: "a@x", passwordHash: "$2b$12$x"))
            try await store.saveConsent(ConsentRecord(userID: "u-1", clientID: "office", scope: "wopi", grantedAt: t0))
            #expect(try await store.deleteUser(id: "u-1"))
            #expect(try await store.user(id: "u-1") == nil)
            #expect(try await store.consent(userID: "u-1", clientID: "office") == nil)
            #expect(try await store.deleteUser(id: "u-1") == false)
        }
    }

    static let all: [StoreContractCheck] = [
        pendingAuthorizationIsReadUntilItExpiresAndTakenOnce,
        expiredPendingAuthorizationCannotBeTaken,
        concurrentTakesYieldTheRecordOnce,
        consentIsRememberedPerUserAndClientAndReplaced,
        signInFailuresAreCountedPerKeyWithinTheWindowAndCleared,
        deletingAUserRemovesItAndItsConsents,
    ]
}
