import Foundation
import Testing

@testable import ManifestLint

/// `tools:ignore` with our ids and Android Lint's, the YAML config, and what is honoured where.
@Suite struct SuppressionTests {
    static func lint(_ manifest: String, options: LintOptions = LintOptions()) throws -> [Finding] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("suppress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("AndroidManifest.xml"))
        return try Linter(options: options).lint(paths: [folder.path]).findings
    }

    /// An AppAuth receiver (a sign-in receiver) with an autoVerify filter whose scheme is custom: an error unless
    /// suppressed.
    static func manifest(ignoreOnActivity: String = "", ignoreOnFilter: String = "") -> String {
        """
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" xmlns:tools="http://schemas.android.com/tools" package="com.contoso.files">
        <uses-sdk android:targetSdkVersion="34"/>
        <application>
        <activity android:name="net.openid.appauth.RedirectUriReceiverActivity" android:exported="true"\(ignoreOnActivity)>
        <intent-filter android:autoVerify="true"\(ignoreOnFilter)>
        <action android:name="android.intent.action.VIEW"/>
        <category android:name="android.intent.category.DEFAULT"/>
        <data android:scheme="com.contoso.files"/>
        </intent-filter>
        </activity>
        </application>
        </manifest>
        """
    }

    @Test func withoutSuppressionTheFindingsAreErrors() throws {
        let ids = try Self.lint(Self.manifest()).map(\.ruleID)
        #expect(ids == ["android-view-filter-not-browsable", "android-autoverify-custom-scheme"])
    }

    @Test func androidLintIdOnTheFilterSilencesTheMappedRule() throws {
        let found = try Self.lint(Self.manifest(ignoreOnFilter: " tools:ignore=\"AppLinkUrlError\""))
        #expect(found.map(\.ruleID) == ["android-view-filter-not-browsable"])
    }

    @Test func ourIdOnAnAncestorSilencesEverythingInside() throws {
        let found = try Self.lint(
            Self.manifest(ignoreOnActivity: " tools:ignore=\"android-view-filter-not-browsable, AppLinkSplitToWebAndCustom\""))
        #expect(found.isEmpty)
        #expect(try Self.lint(Self.manifest(ignoreOnActivity: " tools:ignore=\"all\"")).isEmpty)
        // An id that maps to none of ours changes nothing.
        #expect(try Self.lint(Self.manifest(ignoreOnActivity: " tools:ignore=\"GoogleAppIndexingWarning\"")).count == 2)
    }

    @Test func configTurnsRulesOffAndChangesSeverityPerPath() throws {
        let yaml = """
            rules:
              android-autoverify-custom-scheme: off
            paths:
              - path: "*/AndroidManifest.xml"
                rules:
                  android-view-filter-not-browsable: warning
            """
        let config = try LintConfig.parse(yaml, name: "test.yaml", folder: FileManager.default.temporaryDirectory.path)
        let found = try Self.lint(Self.manifest(), options: LintOptions(config: config))
        #expect(found.map { "\($0.ruleID) \($0.severity)" } == ["android-view-filter-not-browsable warning"])
        let elsewhere = try LintConfig.parse(
            "paths:\n  - path: other/*\n    rules: {android-view-filter-not-browsable: off}", name: "t", folder: "/nowhere")
        #expect(try Self.lint(Self.manifest(), options: LintOptions(config: elsewhere)).count == 2)
    }

    @Test func configMistakesAreUsageErrorsNamingTheKey() {
        func message(_ yaml: String) -> String {
            do {
                _ = try LintConfig.parse(yaml, name: "c.yaml", folder: ".")
                return "accepted"
            } catch { return error.message }
        }
        #expect(message("rules:\n  android-no-such-rule: off") == "c.yaml: rules: unknown rule \"android-no-such-rule\"")
        #expect(message("rules:\n  android-scheme-syntax: loud").hasPrefix("c.yaml: rules.android-scheme-syntax: \"loud\""))
        #expect(message("rule: {}") == "c.yaml: unknown key \"rule\" (known: rules, paths, redirect-uris)")
        #expect(message("paths:\n  - rules: {}") == "c.yaml: paths[0] has no path")
        #expect(message("redirect-uris: [a:/b]\nrules:\n  android-scheme-syntax: off") == "accepted")
    }

    @Test func configRedirectURIsMarkSignInReceivers() throws {
        let mail = """
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.contoso.mail">
            <uses-sdk android:targetSdkVersion="34"/>
            <application><activity android:name=".Open" android:exported="true"><intent-filter>
            <action android:name="android.intent.action.VIEW"/><data android:scheme="mail" android:host="messages"/>
            </intent-filter></activity></application></manifest>
            """
        let plain = try Self.lint(mail)
        #expect(plain.map { "\($0.ruleID) \($0.severity)" }.sorted()
            == ["android-scheme-not-reverse-domain info", "android-view-filter-not-browsable info"])
        let config = try LintConfig.parse("redirect-uris: [\"mail://messages/done\"]", name: "c", folder: ".")
        let asReceiver = try Self.lint(mail, options: LintOptions(config: config))
        #expect(asReceiver.map { "\($0.ruleID) \($0.severity)" }.sorted()
            == ["android-scheme-not-reverse-domain warning", "android-view-filter-not-browsable error"])
    }
}
