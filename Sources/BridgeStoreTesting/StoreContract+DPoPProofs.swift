import BridgeStore
import Foundation
import Testing

/// Store contract: a DPoP proof is accepted once per key and `jti` while its window lasts (RFC 9449 §11.1).
enum DPoPProofContract {
    static let aProofIsUsedOnce = StoreContractCheck("DPoP proofs: aProofIsUsedOnce") { kind in
        try await withStore(kind) { store in
            let proof = DPoPProofUse(keyThumbprint: "key-a", proofID: "jti-1", expiresAt: seconds(300))
            let outcome1 = try await store.useDPoPProof(proof, at: t0)
            #expect(outcome1 == .firstUse)
            let outcome2 = try await store.useDPoPProof(proof, at: seconds(10))
            #expect(outcome2 == .replayed)
            let outcome3 = try await store.useDPoPProof(proof, at: seconds(299))
            #expect(outcome3 == .replayed)
        }
    }

    static let theSameJTIFromAnotherKeyIsAnotherProof = StoreContractCheck(
        "DPoP proofs: theSameJTIFromAnotherKeyIsAnotherProof"
    ) { kind in
        try await withStore(kind) { store in
            let a = DPoPProofUse(keyThumbprint: "key-a", proofID: "jti-1", expiresAt: seconds(300))
            let b = DPoPProofUse(keyThumbprint: "key-b", proofID: "jti-1", expiresAt: seconds(300))
            let outcome4 = try await store.useDPoPProof(a, at: t0)
            #expect(outcome4 == .firstUse)
            let outcome5 = try await store.useDPoPProof(b, at: t0)
            #expect(outcome5 == .firstUse)
        }
    }

    static let aProofWhoseWindowEndedIsForgotten = StoreContractCheck(
        "DPoP proofs: aProofWhoseWindowEndedIsForgotten"
    ) { kind in
        try await withStore(kind) { store in
            // Past its window the proof's `iat` check refuses it anyway; the row may be reused or purged.
            let proof = DPoPProofUse(keyThumbprint: "key-a", proofID: "jti-1", expiresAt: seconds(300))
            let outcome6 = try await store.useDPoPProof(proof, at: t0)
            #expect(outcome6 == .firstUse)
            #expect(try await store.purgeExpired(before: seconds(301), limit: 100) >= 1)
            let outcome7 = try await store.useDPoPProof(proof, at: seconds(301))
            #expect(outcome7 == .firstUse)
            let later = DPoPProofUse(keyThumbprint: "key-a", proofID: "jti-2", expiresAt: seconds(300))
            let outcome8 = try await store.useDPoPProof(later, at: t0)
            #expect(outcome8 == .firstUse)
            let outcome9 = try await store.useDPoPProof(later, at: seconds(300))
            #expect(outcome9 == .firstUse)
        }
    }

    static let racingUsesHaveOneWinner = StoreContractCheck("DPoP proofs: racingUsesHaveOneWinner") { kind in
        try await withStore(kind) { store in
            let proof = DPoPProofUse(keyThumbprint: "key-a", proofID: "raced", expiresAt: seconds(300))
            let outcomes = try await withThrowingTaskGroup(of: DPoPProofUseOutcome.self) { group in
                for _ in 0..<8 { group.addTask { try await store.useDPoPProof(proof, at: t0) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .firstUse }.count == 1)
            #expect(outcomes.filter { $0 == .replayed }.count == 7)
        }
    }

    static let all = [aProofIsUsedOnce, theSameJTIFromAnotherKeyIsAnotherProof, aProofWhoseWindowEndedIsForgotten, racingUsesHaveOneWinner]
}
