/// One problem in one file, as every output format reports it.
public struct Finding: Sendable, Hashable {
    public var ruleID: String
    public var severity: Severity
    /// One line saying what is wrong here, naming the value or element.
    public var message: String
    /// How to fix it (the rule's hint).
    public var hint: String
    /// The path as the user gave it or as it was found under a given directory.
    public var file: String
    public var position: SourcePosition

    /// Android Lint's id for the same problem, when Android Lint reports it too (`AppLinkUrlError`).
    public var androidLintID: String? { AndroidLintIDs.reportedAs[ruleID] }

    public init(ruleID: String, severity: Severity, message: String, hint: String, file: String, position: SourcePosition) {
        self.ruleID = ruleID
        self.severity = severity
        self.message = message
        self.hint = hint
        self.file = file
        self.position = position
    }

    public init(_ diagnosis: Diagnosis, file: String) {
        self.init(
            ruleID: diagnosis.rule.id, severity: diagnosis.severity, message: diagnosis.message,
            hint: diagnosis.rule.hint, file: file, position: diagnosis.position)
    }
}
