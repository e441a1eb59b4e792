import BridgeStore
import Foundation

/// A column missing or of an unexpected type is `StoreColumnError`: the file was changed outside SignInBridge.
extension SQLiteRow: StoreRow {
    func text(_ name: String) throws -> String {
        guard case .text(let value)? = column(name) else { throw StoreColumnError(column: name) }
        return value
    }

    func optionalText(_ name: String) throws -> String? {
        switch column(name) {
        case .text(let value)?: value
        case .null?: nil
        default: throw StoreColumnError(column: name)
        }
    }

    func int64(_ name: String) throws -> Int64 {
        guard case .integer(let value)? = column(name) else { throw StoreColumnError(column: name) }
        return Int64(value)
    }

    func optionalInt64(_ name: String) throws -> Int64? {
        switch column(name) {
        case .integer(let value)?: Int64(value)
        case .null?: nil
        default: throw StoreColumnError(column: name)
        }
    }

    func date(_ name: String) throws -> Date { Milliseconds.date(try int64(name)) }
    func optionalDate(_ name: String) throws -> Date? { Milliseconds.date(try optionalInt64(name)) }
}

/// Binding helpers, so call sites read like the SQL they fill in.
extension SQLiteData {
    static func optionalText(_ value: String?) -> SQLiteData { value.map { .text($0) } ?? .null }
    static func millis(_ date: Date) -> SQLiteData { .integer(.init(Milliseconds.from(date))) }
    static func millis(_ date: Date?) -> SQLiteData { date.map { .millis($0) } ?? .null }
}
