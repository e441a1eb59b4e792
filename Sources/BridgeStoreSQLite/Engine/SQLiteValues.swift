import Foundation

/// A value bound to or read from SQLite. The store uses integers (ids, milliseconds), text and NULL only.
enum SQLiteData: Sendable, Hashable {
    case integer(Int)
    case float(Double)
    case text(String)
    case blob([UInt8])
    case null

    var integer: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }
}

/// One result row: its columns in statement order, looked up by name (rows here have a dozen columns at most, so a
/// linear search beats hashing).
struct SQLiteRow: Sendable {
    let names: [String]
    let values: [SQLiteData]

    func column(_ name: String) -> SQLiteData? {
        guard let index = names.firstIndex(of: name) else { return nil }
        return values[index]
    }
}

/// A failed SQLite call: its extended result code (sqlite.org/rescode.html) and message.
struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String

    var description: String { "SQLite error \(code): \(message)" }

    // Extended result codes of the constraint failures the store names (sqlite.org/rescode.html#constraint).
    static let foreignKeyFailed: Int32 = 787
    static let primaryKeyFailed: Int32 = 1555
    static let uniqueFailed: Int32 = 2067
}
