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
