import Foundation

/// A stable, key-sorted JSON form of a report for scripts: `files`, `findings`, `summary`.
public enum JSONReport {
    struct Document: Encodable {
        struct File: Encodable {
            var path: String
            var kind: String
        }

        struct Item: Encodable {
            var file: String
            var line: Int
            var column: Int
            var severity: String
            var rule: String
            var message: String
            var hint: String
            /// Omitted when Android Lint has no issue for the rule.
            var androidLintId: String?
        }

        struct Summary: Encodable {
            var files: Int
            var errors: Int
            var warnings: Int
            var infos: Int
        }

        var files: [File]
        var findings: [Item]
        var summary: Summary
    }

    public static func render(_ report: LintReport) -> String {
        let document = Document(
            files: report.files.map { .init(path: $0.path, kind: $0.kind.rawValue) },
            findings: report.findings.map {
                .init(
                    file: $0.file, line: $0.position.line, column: $0.position.column, severity: $0.severity.rawValue,
                    rule: $0.ruleID, message: $0.message, hint: $0.hint, androidLintId: $0.androidLintID)
            },
            summary: .init(
                files: report.files.count, errors: report.count(.error), warnings: report.count(.warning),
                infos: report.count(.info)))
        return encode(document)
    }

    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and integers cannot fail.
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
