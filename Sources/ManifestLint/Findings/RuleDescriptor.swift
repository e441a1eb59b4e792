/// What every rule says about itself: a stable id (never reused or renamed: CI configurations and SARIF baselines
/// refer to it), its usual severity, a one-line summary, how to fix it, and where the requirement comes from.
public struct RuleDescriptor: Sendable, Hashable {
    public var id: String
    public var severity: Severity
    public var summary: String
    public var hint: String
    public var reference: RuleReference

    public init(id: String, severity: Severity, summary: String, hint: String, reference: RuleReference) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.hint = hint
        self.reference = reference
    }

    /// A finding of this rule at `position`, with the rule's severity unless the rule has a reason to differ.
    public func finding(_ message: String, at position: SourcePosition, severity: Severity? = nil) -> Diagnosis {
        Diagnosis(rule: self, message: message, position: position, severity: severity ?? self.severity)
    }
}

/// The document a rule comes from: an RFC section, an Android or Apple page, or a Microsoft, Vipps or SPiD page.
public struct RuleReference: Sendable, Hashable {
    public var title: String
    public var url: String

    public init(_ title: String, url: String) {
        self.title = title
        self.url = url
    }
}

/// A rule's finding before it is tied to a file.
public struct Diagnosis: Sendable, Hashable {
    public var rule: RuleDescriptor
    public var message: String
    public var position: SourcePosition
    public var severity: Severity
}
