import Foundation

/// JUnit XML as CI systems read it (the Ant JUnit schema: one `testsuite` per group, one `testcase` per check,
/// `failure` for FAIL, `skipped` for SKIP; WARN passes with its detail in `system-out`).
public enum JUnitOutput {
    public static func render(_ report: ConformanceReport) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let total = report.results.reduce(0) { $0 + $1.durationSeconds }
        xml += "<testsuites name=\"signin-bridge conform\" tests=\"\(report.results.count)\" failures=\"\(report.count(.fail))\" errors=\"0\" skipped=\"\(report.count(.skip))\" time=\"\(seconds(total))\">\n"
        let groups = CheckGroup.allCases.filter { group in report.results.contains { $0.check.group == group } }
        for group in groups {
            let results = report.results.filter { $0.check.group == group }
            let failures = results.filter { $0.status == .fail }.count
            let skipped = results.filter { $0.status == .skip }.count
            let time = results.reduce(0) { $0 + $1.durationSeconds }
            xml += "  <testsuite name=\"\(group.rawValue)\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\"\(seconds(time))\">\n"
            for result in results {
                let check = result.check
                xml += "    <testcase classname=\"conform.\(group.rawValue)\" name=\"\(XMLEscape.escape(check.id))\" time=\"\(seconds(result.durationSeconds))\">\n"
                let message = XMLEscape.escape(result.detail)
                switch result.status {
                case .fail:
                    xml += "      <failure message=\"\(message)\" type=\"\(check.level.rawValue)\">\(XMLEscape.escape(check.summary + "\nSource: " + check.source.description))</failure>\n"
                case .skip:
                    xml += "      <skipped message=\"\(message)\"/>\n"
                case .warn:
                    xml += "      <system-out>WARN (\(check.level.rawValue)): \(message)</system-out>\n"
                case .pass:
                    break
                }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }
}
