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
                // Errors since browser-reachable filters are checked whoever declares them (BROWSABLE VIEW filter).
                "samples/android/broken/AndroidManifest.xml:33:60: error: [android-host-wildcard] android:host \"files.*.contoso.com\" has a '*' that is not a leading \"*.\" wildcard",
                "samples/android/broken/AndroidManifest.xml:33:101: error: [android-path-without-slash] android:pathPrefix \"signin\" does not start with '/'",
                "samples/android/broken/AndroidManifest.xml:34:39: error: [android-autoverify-custom-scheme] autoVerify intent filter declares scheme \"com.contoso.files\"; only http and https are verified",
                "samples/android/broken/AndroidManifest.xml:40:39: info: [android-scheme-not-reverse-domain] private-use scheme \"Contoso\" is not a reverse domain name (not a sign-in receiver, so info only)",
                "samples/android/broken/AndroidManifest.xml:40:39: error: [android-scheme-syntax] android:scheme \"Contoso\" has upper case letters; Android matches schemes in lower case",
                "samples/android/broken/AndroidManifest.xml:41:39: error: [android-scheme-syntax] android:scheme \"contoso:\" contains ':'; write the scheme name alone",
                "samples/android/broken/AndroidManifest.xml:42:39: error: [android-scheme-syntax] android:scheme is empty",
                "samples/android/broken/AndroidManifest.xml:43:39: info: [android-scheme-not-reverse-domain] private-use scheme \"contoso\" is not a reverse domain name (not a sign-in receiver, so info only)",
                "samples/android/broken/AndroidManifest.xml:47:68: error: [android-manifest-schema] <activity> attribute android:exported has an invalid value \"yes\"",
                "2 files checked: 11 errors, 1 warning, 2 infos",
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
        ("android/placeholders", 0, [
                "samples/android/placeholders/AndroidManifest.xml:20:39: info: [android-build-value-unresolved] android:scheme \"${redirectScheme}\" is filled in at build time and could not be checked; give --placeholder redirectScheme=VALUE",
                "samples/android/placeholders/AndroidManifest.xml:20:72: info: [android-build-value-unresolved] android:host \"@string/redirect_host\" is filled in at build time and could not be checked; give --resources (for @string/redirect_host)",
                "samples/android/placeholders/AndroidManifest.xml:33:13: info: [android-view-filter-not-browsable] VIEW intent filter of <activity android:name=\".OpenLinkActivity\"> lacks category BROWSABLE (no browser reaches this filter and it is not a sign-in receiver, so info only)",
                "samples/android/placeholders/AndroidManifest.xml:36:39: info: [android-scheme-not-reverse-domain] private-use scheme \"contoso-internal\" is not a reverse domain name (not a sign-in receiver, so info only)",
                "2 files checked: 0 errors, 0 warnings, 4 infos",
        ]),
        ("android/claimed-twice", 0, [
                "samples/android/claimed-twice/notes/AndroidManifest.xml:28:39: warning: [android-scheme-claimed-twice] com.contoso.notes://oauth2redirect is also claimed by <activity android:name=\".SignInActivity\"> on line 15",
                "samples/android/claimed-twice/tasks/AndroidManifest.xml:11:39: warning: [android-scheme-claimed-twice] com.contoso.notes://oauth2redirect is also claimed by <activity android:name=\".SignInActivity\"> of com.contoso.notes in samples/android/claimed-twice/notes/AndroidManifest.xml:15",
                "3 files checked: 0 errors, 2 warnings, 0 infos",
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
        ("ios/placeholders", 0, [
                "samples/ios/placeholders/Info.plist:7:2: info: [ios-scheme-not-registered] samples/url_schemes.json lists iOS scheme \"com.contoso.files-emm\", which no literal CFBundleURLSchemes entry registers; some entries are build settings and could not be checked (use --build-setting)",
                "samples/ios/placeholders/Info.plist:11:4: info: [ios-build-setting-unresolved] \"$(PRODUCT_BUNDLE_IDENTIFIER)\" is a build setting and could not be checked; give --build-setting PRODUCT_BUNDLE_IDENTIFIER=VALUE",
                "samples/ios/placeholders/Info.plist:15:5: info: [ios-build-setting-unresolved] \"${APP_SCHEME}\" is a build setting and could not be checked; give --build-setting APP_SCHEME=VALUE",
                "2 files checked: 0 errors, 0 warnings, 3 infos",
        ]),
        ("ios/entitlements", 0, [
                "1 file checked: 0 errors, 0 warnings, 0 infos",
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
        ("applinks/correct", 0, [
                "2 files checked: 0 errors, 0 warnings, 0 infos",
        ]),
        ("applinks/broken", 1, [
                "samples/applinks/broken/contoso.com/.well-known/apple-app-site-association:4:18: error: [aasa-app-id-format] \"com.contoso.files\" is not an app ID of the form TEAMID.bundle-id",
                "samples/applinks/broken/contoso.com/.well-known/apple-app-site-association:8:26: warning: [aasa-component-keys] unknown components key \"excluded\": iOS ignores it",
                "samples/applinks/broken/contoso.com/.well-known/apple-app-site-association:10:8: error: [aasa-shape] details[1] has neither components nor paths: it matches no URL",
                "samples/applinks/broken/contoso.com/.well-known/assetlinks.json:1:1: error: [assetlinks-handle-all-urls-missing] no statement grants delegate_permission/common.handle_all_urls to an android_app target: no App Link verifies",
                "samples/applinks/broken/contoso.com/.well-known/assetlinks.json:6:34: error: [assetlinks-fingerprint-format] \"0b:30:55:7a:9f:c4:e9:0e:33:58:7d:a2:c7:ec:11:36:5b:80:a5:ca:ef:14:39:5e:83:a8:cd:f2:17:3c:61:86\" is not a SHA-256 fingerprint of 32 colon-separated upper-case hex bytes (use upper case)",
                "samples/applinks/broken/contoso.com/.well-known/assetlinks.json:9:15: error: [assetlinks-shape] statement 1 has no \"relation\" list of strings",
                "samples/applinks/broken/contoso.com/.well-known/assetlinks.json:10:13: error: [assetlinks-shape] the android_app target of statement 1 has no \"sha256_cert_fingerprints\" list",
                "2 files checked: 6 errors, 1 warning, 0 infos",
        ]),
        // One app's folder: the https paths its manifest claims, checked against the association files beside it.
        ("applinks/one-run/correct", 0, [
                "4 files checked: 0 errors, 0 warnings, 0 infos",
        ]),
        ("applinks/one-run/broken", 1, [
                "samples/applinks/one-run/broken/apple-app-site-association:3:17: error: [aasa-redirect-unmatched] redirect URI https://files.contoso.com/open/ (samples/applinks/one-run/broken/AndroidManifest.xml:14:43) matches no components entry for ABCDE12345.com.contoso.links: iOS opens it in the browser",
                "samples/applinks/one-run/broken/apple-app-site-association:6:9: error: [aasa-redirect-excluded] redirect URI https://files.contoso.com/oauth2/callback (samples/applinks/one-run/broken/AndroidManifest.xml:13:37) is excluded here for ABCDE12345.com.contoso.links: iOS opens it in the browser",
                "samples/applinks/one-run/broken/assetlinks.json:6:9: error: [assetlinks-redirect-excluded] https://files.contoso.com/oauth2/callback (samples/applinks/one-run/broken/AndroidManifest.xml:13:37) is excluded by this dynamic rule for com.contoso.links: Android 15+ opens it in the browser",
                "4 files checked: 3 errors, 0 warnings, 0 infos",
        ]),
        ("applinks/not-json", 1, [
                "samples/applinks/not-json/apple-app-site-association:1:29: error: [aasa-json-syntax] expected ',' or '}' in the object",
                "samples/applinks/not-json/assetlinks.json:1:62: error: [assetlinks-json-syntax] expected a quoted key",
                "2 files checked: 2 errors, 0 warnings, 0 infos",
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

    /// What the cross-checks compare the samples with: samples/applinks/broken as what contoso.com serves, and the
    /// https redirect URI its association file shadows.
    static var crossCheckOptions: LintOptions {
        var options = LintOptions(redirectURIs: ["https://contoso.com/auth/callback"])
        options.assetLinks = ["contoso.com=" + packageRoot + "/samples/applinks/broken/contoso.com/.well-known/assetlinks.json"]
        options.appSiteAssociations = [
            "contoso.com=" + packageRoot + "/samples/applinks/broken/contoso.com/.well-known/apple-app-site-association"
        ]
        return options
    }

    /// Every rule is triggered by some broken sample (the cross-checks with `crossCheckOptions`), so the samples
    /// document the whole rule set. How a host serves its files (`--fetch`) has no sample file: those rules are
    /// triggered by WellKnownFetchTests against a local TLS host.
    @Test func brokenSamplesTriggerEveryRule() throws {
        let report = try Linter(options: Self.crossCheckOptions).lint(paths: [Self.packageRoot + "/samples"])
        let triggered = Set(report.findings.map(\.ruleID))
        let all = Set(RuleCatalog.all.map(\.id)).subtracting(RuleCatalog.wellKnownResponse.map(\.descriptor.id))
        #expect(all.subtracting(triggered).isEmpty, "never triggered: \(all.subtracting(triggered).sorted())")
        #expect(report.exitStatus == 1)
    }
}
