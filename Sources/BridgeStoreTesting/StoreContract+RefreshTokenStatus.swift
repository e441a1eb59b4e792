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
            let first = SecretToken()
            let firstRecord = RefreshTokenRecord(
                digest: first.digest, grantID: grant.id, clientID: "office", scope: "wopi", issuedAt: t0,
                expiresAt: seconds(100))
            try await store.issueRefreshToken(firstRecord)
            #expect(try await store.refreshTokenStatus(first.digest, at: seconds(1)) == .active(firstRecord, grant))
            // Asking twice changes nothing: a status lookup is not a use.
            #expect(try await store.refreshTokenStatus(first.digest, at: seconds(1)) == .active(firstRecord, grant))
            #expect(try await store.refreshTokenStatus(first.digest, at: seconds(100)) == .expired(firstRecord))
            #expect(try await store.refreshTokenStatus(SecretToken().digest, at: seconds(1)) == .unknown)

            let second = SecretToken()
            let secondRecord = RefreshTokenRecord(
                digest: second.digest, grantID: grant.id, clientID: "office", scope: "wopi", issuedAt: seconds(2))
            _ = try await store.rotateRefreshToken(first.digest, replacement: secondRecord, at: seconds(2))
            #expect(try await store.refreshTokenStatus(first.digest, at: seconds(3)) == .rotated(firstRecord))
            #expect(try await store.refreshTokenStatus(second.digest, at: seconds(3)) == .active(secondRecord, grant))

            try await store.revokeGrant(grant.id, at: seconds(4))
            #expect(try await store.refreshTokenStatus(second.digest, at: seconds(5)) == .revoked(secondRecord))
        }
    }

    static let all: [StoreContractCheck] = [
        statusFollowsRotationExpiryAndRevocationWithoutChangingAnything,
    ]
}
