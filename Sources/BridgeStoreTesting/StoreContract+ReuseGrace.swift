import BridgeStore
import Foundation
import Testing

/// `rotateRefreshToken(…, reuseGrace:)`: a client refreshing from several threads at once presents the same token
/// twice within moments; inside the grace that is not a replay, outside it is.
/// Store contract: refresh token reuse grace.
enum ReuseGraceContract {
    static func token(in grant: GrantRecord, at issued: Date) -> (SecretToken, RefreshTokenRecord) {
        let secret = SecretToken()
        return (secret, RefreshTokenRecord(digest: secret.digest, grantID: grant.id, clientID: "office", scope: "wopi", issuedAt: issued))
    }

    static let reuseWithinTheGraceRotatesAgainAndTheWindowNeverGrows = StoreContractCheck(
        "refresh token reuse grace: reuseWithinTheGraceRotatesAgainAndTheWindowNeverGrows"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let (first, firstRecord) = Self.token(in: grant, at: t0)
            try await store.issueRefreshToken(firstRecord)
            let (_, a) = Self.token(in: grant, at: seconds(10))
            let (_, b) = Self.token(in: grant, at: seconds(12))
            let (_, c) = Self.token(in: grant, at: seconds(16))
            #expect(try await store.rotateRefreshToken(first.digest, replacement: a, at: seconds(10), reuseGrace: 5) == .rotated(previous: firstRecord))
            // 2 s after the rotation: inside the grace, a second replacement and nothing revoked.
            #expect(try await store.rotateRefreshToken(first.digest, replacement: b, at: seconds(12), reuseGrace: 5) == .rotated(previous: firstRecord))
            #expect(try await store.grant(id: grant.id)?.revokedAt == nil)
            #expect(try await store.refreshTokenStatus(a.digest, at: seconds(13)) == .active(a, grant))
            #expect(try await store.refreshTokenStatus(b.digest, at: seconds(13)) == .active(b, grant))
            // 6 s after the first rotation (the 12 s reuse did not restart the window): a replay.
            #expect(try await store.rotateRefreshToken(first.digest, replacement: c, at: seconds(16), reuseGrace: 5) == .replayed(grant.id))
            #expect(try await store.grant(id: grant.id)?.revokedAt == seconds(16))
        }
    }

    static let withoutAGraceEveryReuseIsAReplay = StoreContractCheck(
        "refresh token reuse grace: withoutAGraceEveryReuseIsAReplay"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let (first, firstRecord) = Self.token(in: grant, at: t0)
            try await store.issueRefreshToken(firstRecord)
            let (_, a) = Self.token(in: grant, at: seconds(10))
            let (_, b) = Self.token(in: grant, at: seconds(10))
            _ = try await store.rotateRefreshToken(first.digest, replacement: a, at: seconds(10), reuseGrace: 0)
            // Even in the same millisecond.
            #expect(try await store.rotateRefreshToken(first.digest, replacement: b, at: seconds(10), reuseGrace: 0) == .replayed(grant.id))
        }
    }

    static let all: [StoreContractCheck] = [
        reuseWithinTheGraceRotatesAgainAndTheWindowNeverGrows,
        withoutAGraceEveryReuseIsAReplay,
    ]
}
