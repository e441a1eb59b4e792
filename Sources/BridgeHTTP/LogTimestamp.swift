#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// RFC 3339 UTC timestamps with milliseconds (`2026-11-22T21:30:05.123Z`) for log lines, without Foundation's
/// ISO 8601 formatter (ICU, tens of microseconds a line): the date and time part is rebuilt once a second, the
/// milliseconds appended as digits. Not thread-safe: one per writer thread.
package struct LogTimestamp {
    private var second = Int.min
    private var prefix: [UInt8] = []

    package init() {}

    /// The wall clock now, as the moment to stamp a record with (cheap: one vDSO call).
    package static func now() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now
    }

    package mutating func append(_ time: timespec, to bytes: inout [UInt8]) {
        if time.tv_sec != second {
            second = time.tv_sec
            prefix = Self.dateAndTime(second)
        }
        bytes += prefix
        let millis = Int(time.tv_nsec / 1_000_000)
        bytes += [
            UInt8(ascii: "."), UInt8(48 + millis / 100), UInt8(48 + millis / 10 % 10), UInt8(48 + millis % 10),
            UInt8(ascii: "Z"),
        ]
    }

    /// `YYYY-MM-DDTHH:MM:SS` in UTC.
    package static func dateAndTime(_ second: Int) -> [UInt8] {
        var time = time_t(second)
        var parts = tm()
        gmtime_r(&time, &parts)
        var bytes: [UInt8] = []
        func digits(_ value: Int32, _ count: Int) {
            var divisor: Int32 = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(48 + (value / divisor) % 10))
                divisor /= 10
            }
        }
        digits(parts.tm_year + 1900, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(parts.tm_mon + 1, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(parts.tm_mday, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(parts.tm_hour, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(parts.tm_min, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(parts.tm_sec, 2)
        return bytes
    }
}

import struct Foundation.Date

extension LogTimestamp {
    /// `YYYY-MM-DDTHH:MM:SSZ` (RFC 3339 §5.6, UTC, whole seconds) for timestamps in answers and files. Foundation's
    /// `ISO8601DateFormatter` would load ICU's calendar and time-zone data for this fixed format: about 4.8 MiB more
    /// resident memory on Linux, measured in a process that formats one date with it.
    package static func utcSeconds(_ date: Date) -> String {
        String(decoding: dateAndTime(Int(date.timeIntervalSince1970.rounded(.down))) + [UInt8(ascii: "Z")], as: UTF8.self)
    }
}

extension LogTimestamp {
    /// Reads back exactly the form `utcSeconds` writes; nil for anything else, an impossible date (February 30)
    /// included, since the text must survive the round trip.
    package static func date(utcSeconds text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int32(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var parts = tm()
        (parts.tm_year, parts.tm_mon, parts.tm_mday) = (year - 1900, month - 1, day)
        (parts.tm_hour, parts.tm_min, parts.tm_sec) = (hour, minute, second)
        let date = Date(timeIntervalSince1970: Double(timegm(&parts)))
        return utcSeconds(date) == text ? date : nil
    }
}
