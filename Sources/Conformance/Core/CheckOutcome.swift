/// What one check concluded. `skip` is for a check whose inputs are missing (an option not given, a step before it
/// that failed), never for a rule that was broken.
public enum CheckOutcome: Sendable, Hashable {
    case pass(String)
    /// The rule is broken; reported as FAIL for a MUST and as WARN otherwise.
    case fail(String)
    /// The rule holds, but in a form the source discourages (e.g. `expires_in` as a string).
    case warn(String)
    case skip(String)
}

extension CheckOutcome {
    /// The same verdict with `note` added to its detail.
    func withDetail(_ note: String) -> CheckOutcome {
        switch self {
        case .pass(let detail): .pass(detail + "; " + note)
        case .fail(let detail): .fail(detail + "; " + note)
        case .warn(let detail): .warn(detail + "; " + note)
        case .skip(let detail): .skip(detail + "; " + note)
        }
    }
}
