import BridgeStore
import BridgeStoreTesting
import Foundation
import PostgresNIO
import Testing

@testable import BridgeStorePostgres

/// The hot path's prepared statements: their numbered parameters, and a cached statement that outlives a migration.
@Suite("PostgresStore prepared queries")
struct PreparedQueryTests {
    /// Every `$n` the SQL uses is a parameter, and every parameter is used: a parameter bound but never read, or read
    /// but never bound, would fail only on the paths that reach it.
    @Test func startAuthorizationUsesEveryParameterItBinds() {
        #expect(Self.placeholders(StartAuthorizationQuery.sql) == Self.numbers(StartAuthorizationQuery.Parameter.self))
    }

    @Test func codeRedemptionUsesEveryParameterItBinds() {
        #expect(Self.placeholders(CodeRedemptionQuery.sql) == Self.numbers(CodeRedemptionQuery.Parameter.self))
    }

    @Test func continueAuthorizationUsesEveryParameterItBinds() {
        #expect(
            Self.placeholders(ContinueAuthorizationQuery.sql) == Self.numbers(ContinueAuthorizationQuery.Parameter.self))
    }

    @Test func bootstrapUsesEveryParameterItBinds() {
        #expect(Self.placeholders(BootstrapQuery.sql) == Self.numbers(BootstrapQuery.Parameter.self))
    }

    @Test func accessTokenStatusUsesEveryParameterItBinds() {
        #expect(Self.placeholders(AccessTokenStatusQuery.sql) == Self.numbers(AccessTokenStatusQuery.Parameter.self))
    }

    /// A newer build's migration may add a column while this one runs: the statement a connection prepared before
    /// must still answer (it names its columns, so its result type does not change).
    @Test func aColumnAddedByAMigrationLeavesThePreparedRedemptionWorking() async throws {
        var configuration = try await TestDatabase.make()
        configuration.maxConnections = 1  // one connection: the one that prepared the statement runs it again
        let store = try await PostgresStore.open(configuration, logger: TestDatabase.logger)
        let grant = GrantRecord(userID: "alice", clientID: "office", scope: "wopi", createdAt: t0)
        try await store.createGrant(grant)
        func redeemFreshCode() async throws -> CodeRedemption {
            let code = SecretToken()
            try await store.issueAuthorizationCode(
                AuthorizationCodeRecord(
                    digest: code.digest, grantID: grant.id, clientID: "office", redirectURI: "https://localhost",
                    issuedAt: t0, expiresAt: seconds(60)))
            return try await store.redeemAuthorizationCode(code.digest, at: seconds(1))
        }
        guard case .redeemed = try await redeemFreshCode() else { Issue.record("the first code was not redeemed"); return }
        _ = try await TestDatabase.admin(configuration) { connection in
            try await connection.query(
                "ALTER TABLE authorization_codes ADD COLUMN added_later text", logger: TestDatabase.logger)
        }
        guard case .redeemed = try await redeemFreshCode() else { Issue.record("the second code was not redeemed"); return }
        try await store.close()
    }

    static func placeholders(_ sql: String) -> Set<Int> {
        Set(sql.matches(of: /\$([0-9]+)/).compactMap { Int($0.output.1) })
    }

    static func numbers<Parameter: QueryParameter>(_: Parameter.Type) -> Set<Int> {
        let numbers = Parameter.allCases.map(\.rawValue)
        #expect(numbers == Array(1...numbers.count), "parameters are numbered 1, 2, … in declaration order")
        return Set(numbers)
    }
}
