import Foundation
import Testing

@testable import ManifestLint

/// Every finding on the real apps' manifests and plists in Corpus/ (see its README), pinned in
/// Corpus/findings.golden.txt as `signin-bridge lint Tests/ManifestLintTests/Corpus` prints them, hints left out.
/// A change to that file must be a deliberate one; Corpus/README.md judges each finding.
@Suite struct CorpusGoldenTests {
    static let packageRoot = SampleGoldenTests.packageRoot
    static let corpus = packageRoot + "/Tests/ManifestLintTests/Corpus"

    static func findings() throws -> [String] {
        let report = try Linter().lint(paths: [corpus])
        return TextReport.render(report).replacingOccurrences(of: packageRoot + "/", with: "")
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("    fix:") }
    }

    @Test func corpusHasExactlyThePinnedFindings() throws {
        let golden = try String(contentsOfFile: Self.corpus + "/findings.golden.txt", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let actual = try Self.findings()
        #expect(actual == golden, "new:\n\(actual.filter { !golden.contains($0) }.joined(separator: "\n"))\ngone:\n\(golden.filter { !actual.contains($0) }.joined(separator: "\n"))")
    }

    /// The corpus holds at least twenty real files, and linting never fails on any of them.
    @Test func corpusIsLargeEnoughAndParses() throws {
        let report = try Linter().lint(paths: [Self.corpus])
        #expect(report.files.count >= 20)
        #expect(!report.findings.contains { $0.ruleID == "xml-parse-error" })
    }
}
