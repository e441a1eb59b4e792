import BridgeStore
import Foundation

/// Slows password guessing: after `maxFailures` failed sign-ins within `window` for one account, or from one
/// address, further attempts are refused with 429 until the window passes (OWASP authentication cheat sheet).
/// Counted in the store, so that every server instance sharing it sees the same failures.
struct SignInThrottle: Sendable {
    let store: any Store
    let maxFailures: Int
    let window: TimeInterval

    static func keys(signInName: String, address: String) -> [String] {
        ["account:" + signInName.lowercased(), "address:" + address]
    }

    /// Seconds to wait when over the limit, nil when a sign-in may be attempted.
    func retryAfter(signInName: String, address: String, at now: Date) async throws -> Int? {
        let counts = try await store.signInFailureCounts(
            keys: Self.keys(signInName: signInName, address: address), since: now.addingTimeInterval(-window))
        return counts.values.contains(where: { $0 >= maxFailures }) ? Int(window) : nil
    }

    func recordFailure(signInName: String, address: String, at now: Date) async throws {
        try await store.recordSignInFailure(keys: Self.keys(signInName: signInName, address: address), at: now)
    }

    func recordSuccess(signInName: String) async throws {
        try await store.clearSignInFailures(key: Self.keys(signInName: signInName, address: "")[0])
    }
}
