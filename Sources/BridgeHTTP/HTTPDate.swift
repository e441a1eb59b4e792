import Foundation
import NIOConcurrencyHelpers

/// The `Date` header value (RFC 9110 §5.6.7 IMF-fixdate).
package enum HTTPDate {
    package static func currentSecond() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec
    }

    package static func format(_ second: Int) -> String {
        var time = time_t(second)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}

/// The `Date` value of the current second, formatted once per second and shared.
package final class CurrentHTTPDate: Sendable {
    private let cached = NIOLockedValueBox<(second: Int, value: String)>((-1, ""))

    package init() {}

    package var value: String {
        let second = HTTPDate.currentSecond()
        return cached.withLockedValue { cached in
            if cached.second != second { cached = (second, HTTPDate.format(second)) }
            return cached.value
        }
    }
}
