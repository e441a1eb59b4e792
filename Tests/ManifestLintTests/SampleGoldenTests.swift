import Foundation
import Testing

@testable import ManifestLint

/// The exact findings for every sample, as `signin-bridge lint samples/<dir>` prints them (hint lines left out).
/// Each broken sample's comment says which mistake each line is about; a change here must be a deliberate one.
@Suite struct SampleGoldenTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// Lints `samples/<directory>` the way the CLI does from the package root, and prints paths relative to it.
    static func lint(_ directory: String, options: LintOptions = LintOptions()) throws -> (status: Int32, lines: [String]) {
        let report = try Linter(options: options).lint(paths: [packageRoot + "/samples/" + directory])
        let text = TextReport.render(report).replacingOccurrences(of: packageRoot + "/", with: "")
        return (report.exitStatus, text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("    fix:") })
    }

    static let expected: [(sample: String, status: Int32, lines: [String])] = [
        ("android/correct", 0, [
                "2 files checked: 0 errors, 0 warnings, 0 infos",
        ]),
        ("android/broken", 1, [
                "samples/android/broken/AndroidManifest.xml:7:26: error: [android-version-code-below-minimum] android:versionCode 1100 is below 1200, the minimum samples/url_schemes.json gives for com.contoso.files: Office will not offer app-to-app sign-in to this build",
                "samples/android/broken/AndroidManifest.xml:11:33: warning: [xml-entity-not-expanded] entity reference &appname; is left unexpanded: entities are never substituted",
                "samples/android/broken/AndroidManifest.xml:12:73: error: [android-auth-activity-not-exported] auth activity <activity android:name=\".signin.AuthActivity\"> is android:exported=\"false\": Office cannot start it",
                "samples/android/broken/AndroidManifest.xml:13:13: error: [android-view-filter-not-browsable] VIEW intent filter of <activity android:name=\".signin.AuthActivity\"> lacks category BROWSABLE",
                "samples/android/broken/AndroidManifest.xml:20:9: error: [android-exported-missing] <activity android:name=\".ShareActivity\"> has an intent filter but no android:exported: the app does not install on Android 12+",
                "samples/android/broken/AndroidManifest.xml:33:60: error: [android-host-wildcard] android:host \"files.*.contoso.com\" has a '*' that is not a leading \"*.\" wildcard",
                "samples/android/broken/AndroidManifest.xml:33:101: error: [android-path-without-slash] android:pathPrefix \"signin\" does not start with '/'",
                "samples/android/broken/AndroidManifest.xml:34:39: error: [android-autoverify-custom-scheme] autoVerify intent filter declares scheme \"com.contoso.files\"; only http and https are verified",
                "samples/android/broken/AndroidManifest.xml:34:39: warning: [android-scheme-claimed-twice] scheme \"com.contoso.files\" is also claimed by <activity android:name=\".signin.AuthActivity\"> on line 12",
                "samples/android/broken/AndroidManifest.xml:40:39: warning: [android-scheme-not-reverse-domain] private-use scheme \"Contoso\" is not a reverse domain name",
                "samples/android/broken/AndroidManifest.xml:40:39: error: [android-scheme-syntax] android:scheme \"Contoso\" has upper case letters; Android matches schemes in lower case",
                "samples/android/broken/AndroidManifest.xml:41:39: error: [android-scheme-syntax] android:scheme \"contoso:\" contains ':'; write the scheme name alone",
                "samples/android/broken/AndroidManifest.xml:42:39: error: [android-scheme-syntax] android:scheme is empty",
                "samples/android/broken/AndroidManifest.xml:43:39: warning: [android-scheme-not-reverse-domain] private-use scheme \"contoso\" is not a reverse domain name",
                "samples/android/broken/AndroidManifest.xml:47:68: error: [android-manifest-schema] <activity> attribute android:exported has an invalid value \"yes\"",
                "2 files checked: 11 errors, 4 warnings, 0 infos",
        ]),
        ("android/emm-missing-auth-activity", 1, [
                "samples/android/emm-missing-auth-activity/AndroidManifest.xml:5:5: error: [android-auth-activity-missing] samples/url_schemes.json names auth activity com.contoso.files.emm.AuthActivity of com.contoso.files.emm, which this manifest does not declare",
                "2 files checked: 1 error, 0 warnings, 0 infos",
        ]),
        ("android/office-docs-snippet", 0, [
                "samples/android/office-docs-snippet/AndroidManifest.xml:19:2: warning: [android-exported-missing] <activity android:name=\"AuthActivityName\"> has an intent filter but no android:exported; that fails to install from targetSdk 31, and this manifest does not say its targetSdk (use --target-sdk)",
                "2 files checked: 0 errors, 1 warning, 0 infos",
        ]),
        ("android/truncated", 1, [
                "samples/android/truncated/AndroidManifest.xml:8:1: error: [xml-parse-error] the document ends before <intent-filter> (opened on line 6) is closed",
                "2 files checked: 1 error, 0 warnings, 0 infos",
        ]),
        ("ios/correct", 0, [
                "2 files checked: 0 errors, 0 warnings, 0 infos",
        ]),
        ("ios/broken", 1, [
                "samples/ios/broken/Info.plist:6:2: error: [ios-scheme-not-registered] samples/url_schemes.json lists iOS scheme \"com.contoso.files-emm\", which no CFBundleURLSchemes registers",
                "samples/ios/broken/Info.plist:10:4: info: [ios-url-name-not-reverse-dns] CFBundleURLName \"Contoso Files\" is not reverse-DNS",
                "samples/ios/broken/Info.plist:14:5: error: [ios-scheme-syntax] \"contoso://\" is not a valid URL scheme",
                "samples/ios/broken/Info.plist:17:3: error: [ios-url-types-malformed] CFBundleURLTypes item 1 has no CFBundleURLSchemes",
                "samples/ios/broken/Info.plist:21:3: error: [ios-url-types-malformed] CFBundleURLTypes item 2 is a string, not a dict",
                "samples/ios/broken/Info.plist:23:2: warning: [ios-queries-office-scheme-missing] LSApplicationQueriesSchemes lacks ms-powerpoint-tp, ms-officemobile-tp: canOpenURL answers no for them",
                "samples/ios/broken/Info.plist:75:3: error: [ios-queries-schemes-limit] LSApplicationQueriesSchemes has 51 entries; iOS ignores those after the first 50",
                "samples/ios/broken/Info.plist:78:2: error: [plist-schema] <integer> has an invalid value \"12.0\"",
                "2 files checked: 6 errors, 1 warning, 1 info",
        ]),
        ("ios/no-url-types", 1, [
                "samples/ios/no-url-types/Info.plist:5:1: warning: [ios-queries-office-scheme-missing] Info.plist has no LSApplicationQueriesSchemes: canOpenURL answers no for ms-word-tp, ms-excel-tp, ms-powerpoint-tp, ms-officemobile-tp",
                "samples/ios/no-url-types/Info.plist:5:1: error: [ios-scheme-not-registered] samples/url_schemes.json lists iOS scheme \"com.contoso.files\", which no CFBundleURLSchemes registers",
                "samples/ios/no-url-types/Info.plist:5:1: error: [ios-scheme-not-registered] samples/url_schemes.json lists iOS scheme \"com.contoso.files-emm\", which no CFBundleURLSchemes registers",
                "samples/ios/no-url-types/Info.plist:5:1: error: [ios-url-types-missing] Info.plist has no CFBundleURLTypes",
                "2 files checked: 3 errors, 1 warning, 0 infos",
        ]),
        ("url_schemes/office-docs", 0, [
                "1 file checked: 0 errors, 0 warnings, 0 infos",
        ]),
        ("url_schemes/broken", 1, [
                "samples/url_schemes/broken/url_schemes.json:2:32: error: [url-schemes-schema] \"iOS\"[1] \"contoso://\" is not a URL scheme (RFC 3986 §3.1)",
                "samples/url_schemes/broken/url_schemes.json:2:46: error: [url-schemes-schema] \"iOS\"[2] is a number, not a string",
                "samples/url_schemes/broken/url_schemes.json:2:50: warning: [url-schemes-duplicate] \"iOS\" lists scheme \"COM.CONTOSO.FILES\" again (first at index 0)",
                "samples/url_schemes/broken/url_schemes.json:3:3: error: [url-schemes-unknown-platform] unknown platform \"ios\"; did you mean \"iOS\"?",
                "samples/url_schemes/broken/url_schemes.json:6:5: warning: [url-schemes-duplicate] \"Android\" lists package \"com.contoso.files\" again (first at index 0)",
                "samples/url_schemes/broken/url_schemes.json:7:5: error: [url-schemes-android-incomplete] \"Android\"[6] starts a VersionCode, PackageName, AuthActivityName triple that is incomplete",
                "samples/url_schemes/broken/url_schemes.json:9:10: error: [url-schemes-schema] \"UWP\" is an empty list; omit the platform instead",
                "samples/url_schemes/broken/url_schemes.json:10:3: error: [url-schemes-duplicate] platform \"UWP\" is given twice (first on line 9)",
                "1 file checked: 6 errors, 2 warnings, 0 infos",
        ]),
        ("url_schemes/not-json", 1, [
                "samples/url_schemes/not-json/url_schemes.json:3:84: error: [url-schemes-json-syntax] expected a value, found ']'",
                "1 file checked: 1 error, 0 warnings, 0 infos",
        ]),
    ]

    @Test(arguments: expected.map(\.sample))
    func sampleHasExactlyTheseFindings(_ sample: String) throws {
        let expected = try #require(Self.expected.first { $0.sample == sample })
        let actual = try Self.lint(sample)
        #expect(actual.lines == expected.lines)
        #expect(actual.status == expected.status)
    }

    /// The Office docs' snippet has no android:exported: an error once targetSdk is 31 or more, nothing below.
    @Test func officeSnippetDependsOnTargetSdk() throws {
        let at31 = try Self.lint("android/office-docs-snippet", options: LintOptions(targetSdk: 31))
        #expect(at31.status == 1)
        #expect(
            at31.lines.first
                == "samples/android/office-docs-snippet/AndroidManifest.xml:19:2: error: [android-exported-missing] <activity android:name=\"AuthActivityName\"> has an intent filter but no android:exported: the app does not install on Android 12+"
        )
        let at30 = try Self.lint("android/office-docs-snippet", options: LintOptions(targetSdk: 30))
        #expect(at30.status == 0)
        #expect(at30.lines == ["2 files checked: 0 errors, 0 warnings, 0 infos"])
    }

    /// Every rule is triggered by some broken sample, so the samples document the whole rule set.
    @Test func brokenSamplesTriggerEveryRule() throws {
        let report = try Linter().lint(paths: [Self.packageRoot + "/samples"])
        let triggered = Set(report.findings.map(\.ruleID))
        let all = Set(RuleCatalog.all.map(\.id))
        #expect(all.subtracting(triggered).isEmpty, "never triggered: \(all.subtracting(triggered).sorted())")
        #expect(report.exitStatus == 1)
    }
}
