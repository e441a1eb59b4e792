import Foundation

/// Times as whole milliseconds since the epoch: the unit both stores keep dates in (`bigint` on PostgreSQL,
/// `INTEGER` on SQLite) and the one `AccessTokenExpiry` and the WOPI access tokens carry, so a `Date` read back
/// equals the one written whenever it had no sub-millisecond part.
public enum Milliseconds {
    public static func from(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
    public static func from(_ date: Date?) -> Int64? { date.map(from) }
    public static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
    public static func date(_ milliseconds: Int64?) -> Date? { milliseconds.map(date) }
}
