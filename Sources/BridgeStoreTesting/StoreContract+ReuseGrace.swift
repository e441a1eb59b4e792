import BridgeStore
import Foundation
import Testing

/// `refresh(_:at:reuseGrace:)`: a client refreshing from several threads at once presents the same token twice
/// within moments; inside the grace that is not a replay, outside it is.
/// Store contract: refresh token reuse grace.
enum ReuseGraceContract {
    static let reuseWithinTheGraceRotatesAgainAndTheWindowNeverGrows = StoreContractCheck(
        "refresh token reuse grace: reuseWithinTheGraceRotatesAgainAndTheWindowNeverGrows"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let first = TokenStepContract.refreshToken("r-1", in: grant, at: t0)
            try await store.issueRefreshToken(first)
            let rotated = RefreshOutcome.rotated(previous: first, grant: grant, accessScope: "wopi")
            #expect(
                try await TokenStepContract.refresh(store, "r-1", into: "a", accessTokenID: "jti-a", at: seconds(10), reuseGrace: 5)
                    == rotated)
            // 2 s after the rotation: inside the grace, a second replacement and nothing revoked.
            #expect(
                try await TokenStepContract.refresh(store, "r-1", into: "b", accessTokenID: "jti-b", at: seconds(12), reuseGrace: 5)
                    == rotated)
            #expect(try await store.grant(id: grant.id)?.revokedAt == nil)
            let a = TokenStepContract.replacement("a", in: grant, at: seconds(10))
            let b = TokenStepContract.replacement("b", in: grant, at: seconds(12))
            #expect(try await store.refreshTokenStatus(a.digest, at: seconds(13)) == .active(a, grant))
            #expect(try await store.refreshTokenStatus(b.digest, at: seconds(13)) == .active(b, grant))
            // 6 s after the first rotation (the 12 s reuse did not restart the window): a replay.
            #expect(
                try await TokenStepContract.refresh(store, "r-1", into: "c", accessTokenID: "jti-c", at: seconds(16), reuseGrace: 5)
                    == .replayed(grant.id))
            #expect(try await store.grant(id: grant.id)?.revokedAt == seconds(16))
        }
    }

    static let withoutAGraceEveryReuseIsAReplay = StoreContractCheck(
        "refresh token reuse grace: withoutAGraceEveryReuseIsAReplay"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            try await store.issueRefreshToken(TokenStepContract.refreshToken("r-1", in: grant, at: t0))
            _ = try await TokenStepContract.refresh(store, "r-1", into: "a", accessTokenID: "jti-a", at: seconds(10))
            // Even in the same millisecond.
            #expect(
                try await TokenStepContract.refresh(store, "r-1", into: "b", accessTokenID: "jti-b", at: seconds(10))
                    == .replayed(grant.id))
        }
    }

    static let all: [StoreContractCheck] = [
        reuseWithinTheGraceRotatesAgainAndTheWindowNeverGrows,
        withoutAGraceEveryReuseIsAReplay,
    ]
}
