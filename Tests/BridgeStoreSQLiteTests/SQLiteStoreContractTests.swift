import BridgeStore
import BridgeStoreSQLite
import BridgeStoreTesting
import BridgeStoreSQLite
import BridgeStoreTesting
import Testing

extension StoreUnderTest {
    /// A new SQLite file in a temporary folder for each check.
    static let sqlite = StoreUnderTest(name: "SQLite") {
        try await SQLiteStore.open(path: TemporaryDirectory.make().appendingPathComponent("store.sqlite").path)
    }
}

@Suite("SQLiteStore passes the store contract")
struct SQLiteStoreContractTests {
    @Test(arguments: StoreContract.checks)
    func contract(_ check: StoreContractCheck) async throws {
        try await check.run(on: .sqlite)
    }
}
