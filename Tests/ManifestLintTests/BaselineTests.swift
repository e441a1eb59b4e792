import Foundation
import Testing

@testable import ManifestLint

/// `--write-baseline` then `--baseline`: accepted findings stay quiet even when lines move, new ones are reported.
@Suite struct BaselineTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-\(UUID().uuidString)")

    func write(_ text: String, _ name: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }

    func manifest(activities: [String], padding: Int = 0) -> String {
        let body = activities.map { name in
            "<activity android:name=\".\(name)\" android:exported=\"true\"><intent-filter><action android:name=\"android.intent.action.VIEW\"/><data android:scheme=\"\(name.lowercased())\"/></intent-filter></activity>"
        }.joined(separator: "\n")
        return """
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.contoso.files">\(String(repeating: "\n", count: padding))
            <uses-sdk android:targetSdkVersion="34"/>
            <application>
            \(body)
            </application>
            </manifest>
            """
    }

    @Test func baselineHidesRecordedFindingsAndReportsNewOnes() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(manifest(activities: ["Mail"]), "AndroidManifest.xml")
        let first = try Linter().lint(paths: [folder.path])
        #expect(first.findings.count == 2)
        let baselinePath = folder.appendingPathComponent("lint-baseline.json").path
        try Baseline(findings: first.findings, path: baselinePath).write(to: baselinePath)
        let stored = try String(contentsOfFile: baselinePath, encoding: .utf8)
        #expect(stored.contains("\"file\" : \"AndroidManifest.xml\""))

        // Lines moved and a second activity added: only the new activity's findings are reported.
        try write(manifest(activities: ["Mail", "Chat"], padding: 5), "AndroidManifest.xml")
        let baseline = try Baseline.load(path: baselinePath)
        let second = try Linter(options: LintOptions(baseline: (baseline, baselinePath))).lint(paths: [folder.path])
        #expect(second.findings.map(\.message).allSatisfy { $0.contains("Chat") || $0.contains("chat") })
        #expect(second.findings.count == 2)
        #expect(second.baselined == 2)
        #expect(second.summary.hasSuffix("(2 more in the baseline)"))
    }

    @Test func aBrokenBaselineIsAUsageError() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write("{\"format\": 7, \"tool\": \"x\", \"findings\": []}", "b.json")
        #expect(throws: LintUsageError.self) { try Baseline.load(path: folder.appendingPathComponent("b.json").path) }
        try write("not json", "c.json")
        #expect(throws: LintUsageError.self) { try Baseline.load(path: folder.appendingPathComponent("c.json").path) }
    }
}
