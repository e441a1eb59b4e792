import Foundation
import Testing

/// `signin-bridge lint` as a process: exit statuses 0/1/2, where the report goes, nothing else on stderr.
@Suite struct LintCommandTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples").path

    @Test func brokenSamplesExitOneWithFindingsOnStdout() throws {
        let result = try CLIRunner.run("lint", Self.samples)
        #expect(result.status == 1)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains("/android/truncated/AndroidManifest.xml:8:1: error: [xml-parse-error]"))
        #expect(result.stdout.hasSuffix("12 files checked: 29 errors, 9 warnings, 1 info\n"))
    }

    @Test func correctSamplesExitZero() throws {
        let result = try CLIRunner.run(
            "lint", Self.samples + "/url_schemes.json", Self.samples + "/android/correct", Self.samples + "/ios/correct",
            "--format", "json")
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"errors\" : 0"))
    }

    @Test func usageAndUnreadableInputExitTwo() throws {
        #expect(try CLIRunner.run("lint", Self.samples + "/nothing-here").status == 2)
        #expect(try CLIRunner.run("lint", "--url-schemes", "a.json", "--challenge", "Bearer x=1").status == 2)
        #expect(try CLIRunner.run("lint", "--target-sdk", "0", Self.samples).status == 2)
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("lint-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let nothing = try CLIRunner.run("lint", empty.path)
        #expect(nothing.status == 2)
        #expect(nothing.stderr.contains("no AndroidManifest.xml, Info.plist or url_schemes.json found"))
        let noUrlSchemes = try CLIRunner.run("lint", Self.samples + "/ios/correct", "--challenge", "Bearer realm=\"x\"")
        #expect(noUrlSchemes.status == 2)
        #expect(noUrlSchemes.stderr.contains("no UrlSchemes parameter"))
    }

    @Test func writesTheReportToOutputFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString).sarif")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try CLIRunner.run("lint", Self.samples + "/ios/broken", "--format", "sarif", "--output", file.path)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(try String(contentsOf: file, encoding: .utf8).contains("\"version\" : \"2.1.0\""))
    }

    @Test func targetSdkTurnsTheOfficeSnippetIntoAnError() throws {
        let snippet = Self.samples + "/android/office-docs-snippet"
        #expect(try CLIRunner.run("lint", snippet).status == 0)
        #expect(try CLIRunner.run("lint", snippet, "--target-sdk", "31").status == 1)
    }
}
