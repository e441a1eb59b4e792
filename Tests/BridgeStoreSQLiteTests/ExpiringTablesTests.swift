import BridgeStore
import BridgeStoreTesting
@testable import BridgeStoreSQLite
import Foundation
import Testing

/// `ExpiringTables` is what every store's purge deletes: it must name each table of the schema that has an end
/// time, and each must have an index on that column, or the purge would scan the whole table every batch.
@Suite("ExpiringTables")
struct ExpiringTablesTests {
    @Test func listsEveryTableWithAnEndTimeAndEachHasAnIndexOnIt() async throws {
        let path = try TemporaryDirectory.make().appendingPathComponent("bridge.sqlite").path
        let store = try await SQLiteStore.open(path: path)
        let (schemaTables, indexed) = try await store.writer.run { connection in
            let tables = try connection.query(
                """
                SELECT m.name AS name, p.name AS col FROM sqlite_master m JOIN pragma_table_info(m.name) p
                WHERE m.type = 'table' AND p.name IN ('expires_at', 'failed_at')
                """
            ).map { "\(try $0.text("name")).\(try $0.text("col"))" }
            let indexed = try ExpiringTables.all.filter { table, column in
                try !connection.query(
                    "SELECT 1 FROM pragma_index_list(?) l JOIN pragma_index_info(l.name) i WHERE i.seqno = 0 AND i.name = ?",
                    [.text(table), .text(column)]
                ).isEmpty
            }.map { "\($0.table).\($0.endsAt)" }
            return (tables, indexed)
        }
        try await store.close()
        let listed = ExpiringTables.all.map { "\($0.table).\($0.endsAt)" }
        #expect(Set(schemaTables) == Set(listed))
        #expect(listed.count == Set(listed).count)
        #expect(Set(indexed) == Set(listed))
    }
}
