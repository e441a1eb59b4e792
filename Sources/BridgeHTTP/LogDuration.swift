/// A request's duration for its log line, in milliseconds with two decimals (`duration_ms=0.42`). Kept as
/// nanoseconds until the log writer's thread prints it, so the request pays for no formatting.
package struct LogDuration: CustomStringConvertible, Sendable {
    package let nanoseconds: Int64

    package init(nanoseconds: Int64) { self.nanoseconds = max(0, nanoseconds) }

    package init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(nanoseconds: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    package var description: String {
        let hundredths = (nanoseconds + 5_000) / 10_000
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0\(fraction)" : "\(fraction)")
    }
}
