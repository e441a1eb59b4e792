import BridgeStore
import Foundation

/// Dates are stored as whole milliseconds since the epoch (the unit `AccessTokenExpiry` uses on the wire), so a
/// `Date` read back equals the one written whenever it had no sub-millisecond part.
enum Milliseconds {
    static func from(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
    static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
    static func date(_ milliseconds: Int64?) -> Date? { milliseconds.map(date) }
}
