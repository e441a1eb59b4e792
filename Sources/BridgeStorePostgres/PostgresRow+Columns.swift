import BridgeStore
import Foundation
import PostgresNIO

/// Column readers in the store's units: times are `bigint` milliseconds, digests lower-case hex `text`. Public only
/// because a conformance of a public type must be (the records are read by `StoreRow`'s shared readers).
extension PostgresRandomAccessRow: StoreRow {
    public func text(_ column: String) throws -> String { try self[column].decode(String.self) }
    public func optionalText(_ column: String) throws -> String? { try self[column].decode(String?.self) }
    func int(_ column: String) throws -> Int { Int(try self[column].decode(Int64.self)) }
    public func optionalInt64(_ column: String) throws -> Int64? { try self[column].decode(Int64?.self) }
    public func date(_ column: String) throws -> Date { Milliseconds.date(try self[column].decode(Int64.self)) }
    public func optionalDate(_ column: String) throws -> Date? { Milliseconds.date(try self[column].decode(Int64?.self)) }
}
