/// The human format, one finding per line as compilers print them (editors and CI logs link `path:line:col`),
/// the fix hint indented below, and a summary line.
public enum TextReport {
    public static func render(_ report: LintReport) -> String {
        var out = ""
        for finding in report.findings {
            out += "\(finding.file):\(finding.position.line):\(finding.position.column): "
            out += "\(finding.severity.rawValue): [\(finding.ruleID)] \(finding.message)\n"
            out += "    fix: \(finding.hint)\n"
        }
        return out + report.summary + "\n"
    }
}
