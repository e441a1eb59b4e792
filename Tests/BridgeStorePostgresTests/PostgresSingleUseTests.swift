import BridgeStore
import Foundation
import Testing

@testable import BridgeStorePostgres

/// The races one statement per call must win on its own: concurrent redemptions and rotations of one credential,
/// each on its own pooled connection, give exactly one success and make every other caller see a replay.
@Suite("PostgresStore: single use under concurrency")
struct PostgresSingleUseTests {
    @Test func concurrentRedemptionsOnSeveralConnectionsGiveExactlyOneSuccess() async throws {
        try await withPostgresStore { store in
            let grant = GrantRecord(userID: "alice", clientID: "office", scope: "wopi", createdAt: t0)
            try await store.createGrant(grant)
            let secret = SecretToken()
            let code = AuthorizationCodeRecord(
                digest: secret.digest, grantID: grant.id, clientID: "office", redirectURI: "https://localhost",
                codeChallenge: "c", codeChallengeMethod: "S256", scope: "wopi", issuedAt: t0, expiresAt: seconds(60))
            try await store.issueAuthorizationCode(code)
            let outcomes = try await withThrowingTaskGroup(of: CodeRedemption.self) { group in
                for _ in 0..<24 { group.addTask { try await store.redeemAuthorizationCode(secret.digest, at: seconds(1)) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .redeemed(code, grant) }.count == 1)
            #expect(outcomes.filter { $0 == .replayed(grant.id) }.count == 23)
            #expect(try await store.grant(id: grant.id)?.revokedAt == seconds(1))
        }
    }

    @Test func concurrentRotationsWithoutGraceGiveExactlyOneSuccess() async throws {
        try await withPostgresStore { store in
            let grant = GrantRecord(userID: "alice", clientID: "office", scope: "wopi", createdAt: t0)
            try await store.createGrant(grant)
            let token = SecretToken()
            try await store.issueRefreshToken(
                RefreshTokenRecord(digest: token.digest, grantID: grant.id, clientID: "office", issuedAt: t0))
            let outcomes = try await withThrowingTaskGroup(of: RefreshRotation.self) { group in
                for _ in 0..<24 {
                    group.addTask {
                        let replacement = RefreshTokenRecord(
                            digest: SecretToken().digest, grantID: grant.id, clientID: "office", issuedAt: seconds(1))
                        return try await store.rotateRefreshToken(token.digest, replacement: replacement, at: seconds(1))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { if case .rotated = $0 { true } else { false } }.count == 1)
            #expect(outcomes.filter { $0 == .replayed(grant.id) }.count == 23)
        }
    }

    @Test func signInNamesIgnoreASCIICaseOnly() async throws {
        try await withPostgresStore { store in
            let user = UserRecord(id: "u", signInName: "Ärla@Example.com")
            try await store.saveUser(user)
            #expect(try await store.user(signInName: "Ärla@EXAMPLE.COM") == user)
            // SQLite's NOCASE folds A-Z only; so does this store.
            #expect(try await store.user(signInName: "ärla@example.com") == nil)
            await #expect(throws: StoreError.duplicate(what: "user v or sign-in name ÄRLA@example.com")) {
                try await store.saveUser(UserRecord(id: "v", signInName: "ÄRLA@example.com"))
            }
        }
    }
}
