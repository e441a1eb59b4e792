import BridgeStore
import BridgeStoreTesting
import Foundation
import PostgresNIO
import Testing

@testable import BridgeStorePostgres

/// What only the PostgreSQL store promises: migrations that several instances may run at once, one round trip per
/// call, and changes that reach the other instances' `changeCounter`.
@Suite("PostgresStore")
struct PostgresStoreTests {
    @Test func migrationsRunConcurrentlyOnceEach() async throws {
        let configuration = try await TestDatabase.make()
        let applied = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 { group.addTask { try await PostgresStore.migrate(configuration, logger: TestDatabase.logger) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(applied.sorted() == [0, 0, 0, PostgresSchema.migrations.count])
        // And opening after that (which migrates again) finds nothing to do and a working schema.
        let stores = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
            for _ in 0..<2 { group.addTask { try await PostgresStore.open(configuration, logger: TestDatabase.logger) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await stores[0].createGrant(GrantRecord(id: GrantID("g"), userID: "alice", clientID: "office", createdAt: t0))
        #expect(try await stores[1].grant(id: GrantID("g"))?.userID == "alice")
        let versions = try await TestDatabase.admin(configuration) { connection in
            try await connection.query("SELECT version FROM schema_migrations ORDER BY version", logger: TestDatabase.logger)
                .collect().map { try $0.decode(Int32.self) }
        }
        #expect(versions == Array(1...Int32(PostgresSchema.migrations.count)))
        for store in stores { try await store.close() }
    }

    @Test func aDatabaseFromANewerBuildIsRefused() async throws {
        let configuration = try await TestDatabase.make()
        try await PostgresStore.migrate(configuration, logger: TestDatabase.logger)
        _ = try await TestDatabase.admin(configuration) { connection in
            try await connection.query("INSERT INTO schema_migrations VALUES (999, 0)", logger: TestDatabase.logger)
        }
        await #expect(throws: PostgresStore.SchemaTooNew.self) { try await PostgresStore.open(configuration, logger: TestDatabase.logger) }
    }

    @Test func everyCallIsOneRoundTrip() async throws {
        try await withPostgresStore { store in
            let grant = GrantRecord(userID: "alice", clientID: "office", scope: "wopi", createdAt: t0)
            let code = SecretToken()
            let before = store.roundTrips
            try await store.createGrant(grant)
            try await store.issueAuthorizationCode(
                AuthorizationCodeRecord(
                    digest: code.digest, grantID: grant.id, clientID: "office", redirectURI: "https://localhost",
                    issuedAt: t0, expiresAt: seconds(60)))
            _ = try await store.redeemAuthorizationCode(code.digest, at: seconds(1))
            try await store.recordTokenResponse(
                access: AccessTokenRecord(tokenID: "jti", grantID: grant.id, issuedAt: t0, expiresAt: seconds(60)),
                refresh: RefreshTokenRecord(digest: SecretToken().digest, grantID: grant.id, clientID: "office", issuedAt: t0))
            #expect(store.roundTrips - before == 4)
        }
    }

    @Test func aRevocationThroughOneInstanceMovesTheOthersChangeCounter() async throws {
        let configuration = try await TestDatabase.make()
        let a = try await PostgresStore.open(configuration, logger: TestDatabase.logger)
        let b = try await PostgresStore.open(configuration, logger: TestDatabase.logger)
        let grant = GrantRecord(userID: "alice", clientID: "office", createdAt: t0)
        try await a.createGrant(grant)
        try await a.recordAccessToken(AccessTokenRecord(tokenID: "jti", grantID: grant.id, issuedAt: t0, expiresAt: seconds(60)))
        let before = b.changeCounter
        #expect(try await a.revokeAccessToken(tokenID: "jti", at: seconds(1)))
        var moved = false
        for _ in 0..<100 where !moved {
            try await Task.sleep(for: .milliseconds(20))
            moved = b.changeCounter != before
        }
        #expect(moved)
        #expect(try await b.accessTokenStatus(tokenID: "jti", at: seconds(2)) == .revoked)
        try await a.close()
        try await b.close()
    }

    @Test func aClosedPortAnswersUnavailableWithinTheTimeout() async throws {
        var configuration = try TestDatabase.server()
        configuration.port = try Self.closedPort()
        configuration.connectTimeout = .seconds(1)
        let error = await #expect(throws: StoreError.self) {
            try await PostgresStore.open(configuration, logger: TestDatabase.logger)
        }
        // The store's own deadline answered, not the pool's circuit breaker (which opens only after failing for
        // 15 s or more). No wall-clock bound here: in a full run, tests that wait synchronously for child processes
        // can hold the cooperative threads for a long time; scripts/test/outage.py times it over real sockets.
        #expect(error == .unavailable(reason: "no database connection within 1.0 seconds"))
    }

    @Test func aDatabaseThatRefusesConnectionsAnswersUnavailableAndServiceResumes() async throws {
        var configuration = try await TestDatabase.make()
        // Migrated with the generous timeout first, so that the short one only has to cover connecting.
        try await PostgresStore.migrate(configuration, logger: TestDatabase.logger)
        configuration.connectTimeout = .seconds(10)
        let store = try await PostgresStore.open(configuration, logger: TestDatabase.logger)
        try await store.checkHealth()
        let database = configuration.database
        // The outage: no new connections to this database, and the store's open ones are ended.
        _ = try await TestDatabase.admin(configuration, database: "postgres") { connection in
            try await connection.query(
                PostgresQuery(unsafeSQL: "ALTER DATABASE \(database) ALLOW_CONNECTIONS false"), logger: TestDatabase.logger)
            try await connection.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(database)",
                logger: TestDatabase.logger)
        }
        for _ in 0..<2 {
            await #expect(performing: { try await store.checkHealth() }, throws: isUnavailable)
        }
        _ = try await TestDatabase.admin(configuration, database: "postgres") { connection in
            try await connection.query(
                PostgresQuery(unsafeSQL: "ALTER DATABASE \(database) ALLOW_CONNECTIONS true"), logger: TestDatabase.logger)
        }
        var healthy = false
        for _ in 0..<50 where !healthy {
            healthy = (try? await store.checkHealth()) != nil
            if !healthy { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(healthy)
        try await store.close()
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

    /// A loopback port nothing listens on: bound, then released.
    static func closedPort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddr in
                bind(socket, sockaddr, length) == 0 && getsockname(socket, sockaddr, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// `StoreError.unavailable`, whatever its reason.
func isUnavailable(_ error: any Error) -> Bool {
    if case .unavailable = error as? StoreError { true } else { false }
}
