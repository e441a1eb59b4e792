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
        #expect(result.stdout.hasSuffix("29 files checked: 41 errors, 9 warnings, 10 infos\n"))
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

    /// Placeholders and resources given on the command line leave nothing unchecked; a malformed one is a usage error.
    @Test func placeholdersAndResourcesFillInBuildValues() throws {
        let sample = Self.samples + "/android/placeholders"
        let without = try CLIRunner.run("lint", sample)
        #expect(without.stdout.contains("[android-build-value-unresolved]"))
        let with = try CLIRunner.run(
            "lint", sample, "--placeholder", "redirectScheme=com.contoso.notes", "--resources", sample + "/strings.xml")
        #expect(with.status == 0)
        #expect(!with.stdout.contains("[android-build-value-unresolved]"))
        #expect(try CLIRunner.run("lint", sample, "--placeholder", "novalue").status == 2)
        #expect(try CLIRunner.run("lint", sample, "--signing-cert-sha256", "AB:CD").status == 2)
    }

    /// --write-baseline records today's findings and exits 0; --baseline then reports none of them.
    @Test func baselineRoundTrip() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let broken = Self.samples + "/android/broken"
        let written = try CLIRunner.run("lint", broken, "--write-baseline", file.path)
        #expect(written.status == 0)
        let again = try CLIRunner.run("lint", broken, "--baseline", file.path)
        #expect(again.status == 0)
        #expect(again.stdout.hasSuffix("2 files checked: 0 errors, 0 warnings, 0 infos (14 more in the baseline)\n"))
        #expect(try CLIRunner.run("lint", broken, "--baseline", file.path, "--write-baseline", file.path).status == 2)
    }

    /// A config file turns a rule off; a config naming an unknown rule is a usage error.
    @Test func configFileTurnsRulesOff() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("rules:\n  android-exported-missing: off\n".utf8).write(to: file)
        let snippet = Self.samples + "/android/office-docs-snippet"
        let quiet = try CLIRunner.run("lint", snippet, "--config", file.path)
        #expect(quiet.stdout.hasSuffix("2 files checked: 0 errors, 0 warnings, 0 infos\n"))
        try Data("rules:\n  no-such-rule: off\n".utf8).write(to: file)
        let wrong = try CLIRunner.run("lint", snippet, "--config", file.path)
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("unknown rule \"no-such-rule\""))
    }
}
