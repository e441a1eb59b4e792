/// One rule of the protocol, checked against a live host. One type per rule, one file per type, listed in
/// `CheckRegistry.all`.
public protocol ConformanceCheck: Sendable {
    /// What the check is, for every output and docs/conformance.md: one value, as an Android Lint detector declares
    /// its `Issue` (https://github.com/googlesamples/android-custom-lint-rules).
    static var descriptor: CheckDescriptor { get }

    init()

    /// Runs against the session's host; shared steps (the challenge, the sign-in, the tokens) are done once.
    /// Throws when an input the check needs is missing; the runner reports that as SKIP.
    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome
}

/// A check could not run because an input is missing (an option, or a step another check reports on).
public struct CheckSkipped: Error, Sendable, Hashable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// A check's metadata without its code.
public struct CheckDescriptor: Sendable, Hashable, Codable {
    /// Stable, dotted: `group.rule`. Printed in every output and used in docs/conformance.md.
    public var id: String
    public var group: CheckGroup
    public var level: CheckLevel
    public var source: SourceCitation
    /// The rule in one sentence, as a host engineer would read it.
    public var summary: String

    public init(id: String, group: CheckGroup, level: CheckLevel, source: SourceCitation, summary: String) {
        self.id = id
        self.group = group
        self.level = level
        self.source = source
        self.summary = summary
    }
}
