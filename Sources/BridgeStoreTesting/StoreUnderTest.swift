import BridgeStore
import Foundation
import Testing

/// One implementation of `Store` that the contract runs against: a name for the test report and a way to open a
/// fresh, empty store. Each store target's tests pass their own (`SQLiteStore` on a temporary file, `PostgresStore`
/// on a fresh schema).
public struct StoreUnderTest: Sendable, CustomTestStringConvertible {
    public let name: String
    public let open: @Sendable () async throws -> any Store

    public init(name: String, open: @escaping @Sendable () async throws -> any Store) {
        self.name = name
        self.open = open
    }

    public var testDescription: String { name }
}

/// One rule of the store contract: what any `Store` must do, written once and run unchanged against every
/// implementation, the way fosite's storage tests are shared by its SQL and in-memory stores.
public struct StoreContractCheck: Sendable, CustomTestStringConvertible {
    public let name: String
    private let body: @Sendable (StoreUnderTest) async throws -> Void

    init(_ name: String, _ body: @escaping @Sendable (StoreUnderTest) async throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the check inside the calling `@Test`; failures are recorded there through `#expect`.
    public func run(on kind: StoreUnderTest) async throws { try await body(kind) }

    public var testDescription: String { name }
}

/// Every check of the store contract. A store's test target runs them all with one parameterised test:
///
///     @Test(arguments: StoreContract.checks)
///     func contract(_ check: StoreContractCheck) async throws { try await check.run(on: .sqlite) }
public enum StoreContract {
    public static var checks: [StoreContractCheck] {
        UserContract.all + TokenContract.all + TokenResponseContract.all + SingleUseContract.all
            + RefreshTokenStatusContract.all + ReuseGraceContract.all + SignInContract.all + BurstContract.all
            + AuthorizationStepContract.all + TokenStepContract.all + BootstrapStepContract.all + AppToAppContract.all
            + ExchangeCodeContract.all + UpstreamContract.all + BrokerSessionStepContract.all + NewGrantStepContract.all
            + PasswordChangeContract.all + DPoPProofContract.all + PushedAuthorizationContract.all
            + AuthSessionContract.all + SimpleLoginContract.all + DeviceSSOContract.all
    }
}

public enum TemporaryDirectory {
    public static func make() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("signin-bridge-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Whole seconds, so that millisecond storage gives back exactly the same `Date`.
public let t0 = Date(timeIntervalSince1970: 1_800_000_000)

public func seconds(_ s: Double) -> Date { t0.addingTimeInterval(s) }

/// Opens a store, runs `body`, closes the store even when `body` throws.
public func withStore(_ kind: StoreUnderTest, _ body: (any Store) async throws -> Void) async throws {
    let store = try await kind.open()
    do {
        try await body(store)
    } catch {
        try? await store.close()
        throw error
    }
    try await store.close()
}

/// A user with an active grant, the starting point of most token tests.
public func makeGrant(in store: any Store, user: String = "alice", client: String = "office") async throws -> GrantRecord {
    let grant = GrantRecord(userID: user, clientID: client, scope: "wopi", createdAt: t0)
    try await store.createGrant(grant)
    return grant
}
