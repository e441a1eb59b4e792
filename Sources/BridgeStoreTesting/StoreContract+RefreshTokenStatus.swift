import BridgeStore
import Foundation
import Testing

/// Store contract: refresh token status.
enum RefreshTokenStatusContract {
    static let statusFollowsRotationExpiryAndRevocationWithoutChangingAnything = StoreContractCheck(
        "refresh token status: statusFollowsRotationExpiryAndRevocationWithoutChangingAnything"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let first = TokenStepContract.refreshToken("r-1", in: grant, at: t0, expiresAt: seconds(100))
            try await store.issueRefreshToken(first)
            #expect(try await store.refreshTokenStatus(first.digest, at: seconds(1)) == .active(first, grant))
            // Asking twice changes nothing: a status lookup is not a use.
            #expect(try await store.refreshTokenStatus(first.digest, at: seconds(1)) == .active(first, grant))
            #expect(try await store.refreshTokenStatus(first.digest, at: seconds(100)) == .expired(first))
            #expect(try await store.refreshTokenStatus(SecretToken().digest, at: seconds(1)) == .unknown)

            let second = TokenStepContract.replacement("r-2", in: grant, at: seconds(2))
            _ = try await TokenStepContract.refresh(store, "r-1", into: "r-2", accessTokenID: "jti-2", at: seconds(2))
            #expect(try await store.refreshTokenStatus(first.digest, at: seconds(3)) == .rotated(first))
            #expect(try await store.refreshTokenStatus(second.digest, at: seconds(3)) == .active(second, grant))

            try await store.revokeGrant(grant.id, at: seconds(4))
            #expect(try await store.refreshTokenStatus(second.digest, at: seconds(5)) == .revoked(second))
        }
    }

    static let all: [StoreContractCheck] = [
        statusFollowsRotationExpiryAndRevocationWithoutChangingAnything,
    ]
}
