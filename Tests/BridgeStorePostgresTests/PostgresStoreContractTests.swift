import BridgeStore
import BridgeStorePostgres
import BridgeStoreTesting
import Testing

extension StoreUnderTest {
    /// A new database on the test server for each check.
    static let postgres = StoreUnderTest(name: "PostgreSQL") {
        try await PostgresStore.open(TestDatabase.make(), logger: TestDatabase.logger)
    }
}

@Suite("PostgresStore passes the store contract")
struct PostgresStoreContractTests {
    @Test(arguments: StoreContract.checks)
    func contract(_ check: StoreContractCheck) async throws {
        try await check.run(on: .postgres)
    }
}
