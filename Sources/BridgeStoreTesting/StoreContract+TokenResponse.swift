import BridgeStore
import Foundation
import Testing

/// Store contract: a token response's tokens recorded together.
enum TokenResponseContract {
    static let accessAndRefreshTokenAreRecordedTogether = StoreContractCheck(
        "a token response's tokens recorded together: accessAndRefreshTokenAreRecordedTogether"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let access = AccessTokenRecord(tokenID: "jti-1", grantID: grant.id, issuedAt: t0, expiresAt: seconds(300))
            let refresh = RefreshTokenRecord(
                digest: SecretToken().digest, grantID: grant.id, clientID: "office", scope: "wopi", issuedAt: t0)
            try await store.recordTokenResponse(access: access, refresh: refresh)
            #expect(try await store.accessTokenStatus(tokenID: "jti-1", at: seconds(1)) == .active(access, grant))
            #expect(try await store.refreshTokenStatus(refresh.digest, at: seconds(1)) == .active(refresh, grant))
            // Without a refresh token (a client that may not refresh) only the access token is recorded.
            let alone = AccessTokenRecord(tokenID: "jti-2", grantID: grant.id, issuedAt: t0, expiresAt: seconds(300))
            try await store.recordTokenResponse(access: alone, refresh: nil)
            #expect(try await store.accessTokenStatus(tokenID: "jti-2", at: seconds(1)) == .active(alone, grant))
        }
    }

    static let aFailedRefreshTokenLeavesNoAccessTokenBehind = StoreContractCheck(
        "a token response's tokens recorded together: aFailedRefreshTokenLeavesNoAccessTokenBehind"
    ) { kind in
        try await withStore(kind) { store in
            let grant = try await makeGrant(in: store)
            let refresh = RefreshTokenRecord(
                digest: SecretToken().digest, grantID: grant.id, clientID: "office", issuedAt: t0)
            try await store.issueRefreshToken(refresh)
            let access = AccessTokenRecord(tokenID: "jti-1", grantID: grant.id, issuedAt: t0, expiresAt: seconds(300))
            await #expect(throws: StoreError.duplicate(what: "refresh token")) {
                try await store.recordTokenResponse(access: access, refresh: refresh)
            }
            // Both or neither: the access token of the failed call was rolled back.
            #expect(try await store.accessTokenStatus(tokenID: "jti-1", at: seconds(1)) == .unknown)
            await #expect(throws: StoreError.missingReference(what: "the grant of access token x")) {
                try await store.recordTokenResponse(
                    access: AccessTokenRecord(tokenID: "x", grantID: GrantID("missing"), issuedAt: t0, expiresAt: seconds(1)),
                    refresh: nil)
            }
        }
    }

    static let all: [StoreContractCheck] = [
        accessAndRefreshTokenAreRecordedTogether,
        aFailedRefreshTokenLeavesNoAccessTokenBehind,
    ]
}
