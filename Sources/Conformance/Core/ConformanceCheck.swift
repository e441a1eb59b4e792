/// One rule of the protocol, checked against a live host. One type per rule, one file per type, listed in
/// `CheckRegistry.all`.
public protocol ConformanceCheck: Sendable {
    /// Stable, dotted: `group.rule`. Printed in every output and used in docs/conformance.md.
    static var id: String { get }
    static var group: CheckGroup { get }
    static var level: CheckLevel { get }
    static var source: SourceCitation { get }
    /// The rule in one sentence, as a host engineer would read it.
    static var summary: String { get }

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

extension ConformanceCheck {
    /// The metadata of this check, for outputs.
    public static var descriptor: CheckDescriptor {
        CheckDescriptor(id: id, group: group, level: level, source: source, summary: summary)
    }
}

/// A check's metadata without its code.
public struct CheckDescriptor: Sendable, Hashable, Codable {
    public var id: String
    public var group: CheckGroup
    public var level: CheckLevel
    public var source: SourceCitation
    public var summary: String
}
