import BridgeStore
import Foundation
import PostgresNIO

/// Column readers in the store's units: times are `bigint` milliseconds, digests lower-case hex `text`.
extension PostgresRandomAccessRow {
    func text(_ column: String) throws -> String { try self[column].decode(String.self) }
    func optionalText(_ column: String) throws -> String? { try self[column].decode(String?.self) }
    func int(_ column: String) throws -> Int { Int(try self[column].decode(Int64.self)) }
    func optionalInt64(_ column: String) throws -> Int64? { try self[column].decode(Int64?.self) }
    func date(_ column: String) throws -> Date { Milliseconds.date(try self[column].decode(Int64.self)) }
    func optionalDate(_ column: String) throws -> Date? { Milliseconds.date(try self[column].decode(Int64?.self)) }

    func digest(_ column: String) throws -> TokenDigest {
        guard let digest = TokenDigest(hex: try text(column)) else { throw UnexpectedColumnValue(column: column) }
        return digest
    }

    /// A `grants` row, its columns prefixed `g_` when it came through a join.
    func grant(prefix: String = "g_") throws -> GrantRecord {
        GrantRecord(
            id: GrantID(try text(prefix + "id")), userID: try text(prefix + "user_id"),
            clientID: try text(prefix + "client_id"), scope: try text(prefix + "scope"),
            sessionContext: try optionalText(prefix + "session_context"),
            createdAt: try date(prefix + "created_at"), revokedAt: try optionalDate(prefix + "revoked_at"))
    }
}

/// A column whose text this store did not write (not a digest, not a known consent rule).
struct UnexpectedColumnValue: Error, CustomStringConvertible {
    var column: String
    var description: String { "column \(column) holds a value this store does not write" }
}

