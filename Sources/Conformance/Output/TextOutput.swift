/// One line per check, `PASS|FAIL|WARN|SKIP id: detail`, then `N passed, N failed, …`.
public enum TextOutput {
    public static func line(_ result: CheckResult) -> String {
        "\(result.status.rawValue) \(result.check.id): \(result.detail)"
    }

    public static func render(_ report: ConformanceReport) -> String {
        (report.results.map(line) + [report.summaryLine]).joined(separator: "\n") + "\n"
    }
}
