/// How strongly a source asks for a rule, in its own words (RFC 2119): a failed MUST fails the run, a failed
/// SHOULD or informational check is reported as a warning.
public enum CheckLevel: String, Sendable, Codable, CaseIterable {
    case must = "MUST"
    case should = "SHOULD"
    case info
}
