/// Everything one `signin-bridge lint` run found.
public struct LintReport: Sendable {
    /// The files checked, in the order they were checked (paths as given or found).
    public var files: [LintedFile]
    /// Sorted by file (in `files` order), then line, column and rule id.
    public var findings: [Finding]
    /// Findings left out because the baseline holds them.
    public var baselined: Int

    public init(files: [LintedFile], findings: [Finding], baselined: Int = 0) {
        self.files = files
        self.baselined = baselined
        let order = Dictionary(files.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
        self.findings = findings.sorted {
            (order[$0.file] ?? Int.max, $0.position.line, $0.position.column, $0.ruleID)
                < (order[$1.file] ?? Int.max, $1.position.line, $1.position.column, $1.ruleID)
        }
    }

    public func count(_ severity: Severity) -> Int { findings.filter { $0.severity == severity }.count }

    /// 0 when no finding is an error, 1 otherwise (2, usage or unreadable input, never gets this far).
    public var exitStatus: Int32 { count(.error) > 0 ? 1 : 0 }

    /// "3 files checked: 2 errors, 1 warning, 0 infos"
    public var summary: String {
        func counted(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        return "\(counted(files.count, "file")) checked: \(counted(count(.error), "error")), "
            + "\(counted(count(.warning), "warning")), \(counted(count(.info), "info"))"
            + (baselined > 0 ? " (\(baselined) more in the baseline)" : "")
    }
}

public struct LintedFile: Sendable, Hashable {
    public var path: String
    public var kind: FileKind
}

/// The command line or an input file cannot be used at all: exit status 2.
public struct LintUsageError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
