import Foundation
import Testing

@testable import ManifestLint

@Suite struct OutputFormatTests {
    static let report = LintReport(
        files: [LintedFile(path: "app dir/AndroidManifest.xml", kind: .androidManifest)],
        findings: [
            Finding(
                ruleID: "android-exported-missing", severity: .warning, message: "m2", hint: "h2",
                file: "app dir/AndroidManifest.xml", position: SourcePosition(line: 9, column: 5)),
            Finding(
                ruleID: "android-scheme-syntax", severity: .error, message: "m1", hint: "h1",
                file: "app dir/AndroidManifest.xml", position: SourcePosition(line: 3, column: 7)),
        ])

    @Test func textIsCompilerStyleWithHintAndSummary() {
        #expect(
            TextReport.render(Self.report) == """
                app dir/AndroidManifest.xml:3:7: error: [android-scheme-syntax] m1
                    fix: h1
                app dir/AndroidManifest.xml:9:5: warning: [android-exported-missing] m2
                    fix: h2
                1 file checked: 1 error, 1 warning, 0 infos

                """)
        #expect(Self.report.exitStatus == 1)
        #expect(LintReport(files: [], findings: [Self.report.findings[1]]).exitStatus == 0)
    }

    @Test func jsonListsFilesFindingsAndSummary() throws {
        let object = try JSONSerialization.jsonObject(with: Data(JSONReport.render(Self.report).utf8)) as? [String: Any]
        let findings = try #require(object?["findings"] as? [[String: Any]])
        #expect(findings.first?["rule"] as? String == "android-scheme-syntax")
        #expect(findings.first?["line"] as? Int == 3)
        #expect((object?["summary"] as? [String: Int])?["errors"] == 1)
    }

    /// Structure checks only; the SARIF 2.1.0 schema itself is checked by an independent validator in
    /// scripts/test/lint-cli.sh (OASIS schema through Python's jsonschema, and sarif-pydantic).
    @Test func sarifCarriesRuleMetadataAndLocations() throws {
        let text = SARIFReport.render(Self.report, toolVersion: "1.2.3")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.count == RuleCatalog.all.count)
        let results = try #require(run["results"] as? [[String: Any]])
        let first = try #require(results.first)
        let index = try #require(first["ruleIndex"] as? Int)
        #expect(rules[index]["id"] as? String == "android-scheme-syntax")
        #expect((rules[index]["help"] as? [String: String])?["text"] == "Write the scheme name alone, in lower case: android:scheme=\"com.contoso.files\".")
        #expect(results[1]["level"] as? String == "warning")
        #expect(text.contains("\"uri\" : \"app%20dir/AndroidManifest.xml\""))
        #expect(text.contains("\"startColumn\" : 7"))
        #expect(SARIFReport.uri(for: "/tmp/a b/Info.plist") == "file:///tmp/a%20b/Info.plist")
    }

    /// Findings Android Lint also reports carry its id, in SARIF's result and rule property bags and in JSON; a
    /// rule Android Lint has no issue for carries none.
    @Test func androidLintIDsAreInSARIFAndJSON() throws {
        var report = Self.report
        report.findings.append(
            Finding(
                ruleID: "ios-scheme-syntax", severity: .error, message: "m3", hint: "h3", file: "Info.plist",
                position: SourcePosition(line: 1, column: 1)))
        let log = try #require(
            try JSONSerialization.jsonObject(with: Data(SARIFReport.render(report, toolVersion: "1").utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        let ids = results.map { ($0["properties"] as? [String: String])?["androidLintId"] }
        #expect(ids == ["AppLinkUrlError", "IntentFilterExportedReceiver", nil])
        let rules = try #require((run["tool"] as? [String: Any]).flatMap { $0["driver"] as? [String: Any] }?["rules"] as? [[String: Any]])
        let schemeRule = try #require(rules.first { $0["id"] as? String == "android-path-without-slash" })
        #expect((schemeRule["properties"] as? [String: String])?["androidLintId"] == "AppLinkUrlError")

        let json = try #require(try JSONSerialization.jsonObject(with: Data(JSONReport.render(report).utf8)) as? [String: Any])
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(findings.map { $0["androidLintId"] as? String } == ["AppLinkUrlError", "IntentFilterExportedReceiver", nil])
    }
}
