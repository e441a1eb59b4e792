/// A shared step (the challenge, the sign-in, the token redemption) could not be done. The check that owns the
/// step reports it as FAIL; checks that only need its result report SKIP with this reason.
public struct StepFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    /// The sign-in stopped at a password form it had no credentials for (a probe in `--manual` mode).
    public var stoppedAtSignIn: Bool
    /// A request got no answer at all (unreachable, timed out): nothing was refused, so nothing can pass.
    public var unanswered: Bool
    public init(_ reason: String, stoppedAtSignIn: Bool = false, unanswered: Bool = false) {
        self.reason = reason
        self.stoppedAtSignIn = stoppedAtSignIn
        self.unanswered = unanswered
    }
    public var description: String { reason }
}

extension Result where Failure == StepFailure {
    /// The value, or nil; with `reason` holding why not.
    var reason: String {
        if case .failure(let failure) = self { return failure.reason }
        return ""
    }

    var value: Success? { try? get() }

    /// The step's value for a check; when the step could not be done, the check is skipped with its reason.
    func orSkip() throws(CheckSkipped) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let failure): throw CheckSkipped(failure.reason)
        }
    }
}
