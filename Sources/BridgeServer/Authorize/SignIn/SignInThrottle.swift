import BridgeStore
import Foundation

/// Slows password guessing: after `maxFailures` failed sign-ins within `window` for one account, or from one
/// address, further attempts are refused with 429 until the window passes (OWASP authentication cheat sheet).
/// Counted in the store, so that every server instance sharing it sees the same failures.
struct SignInThrottle: Sendable {
    let maxFailures: Int
    let window: TimeInterval

    static func keys(signInName: String, address: String) -> [String] {
        ["account:" + signInName.lowercased(), "address:" + address]
    }

    /// The start of the window whose failures count at `now`.
    func windowStart(at now: Date) -> Date { now.addingTimeInterval(-window) }

    /// Seconds to wait when a key is over the limit, nil when a sign-in may be attempted; `failures` as the store
    /// counted them from `windowStart`.
    func retryAfter(failures: [String: Int]) -> Int? {
        failures.values.contains(where: { $0 >= maxFailures }) ? Int(window) : nil
    }
}
