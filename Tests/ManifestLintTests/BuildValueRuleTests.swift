import Foundation
import Testing

@testable import ManifestLint

/// Placeholders, string resources and build settings: what is known is filled in before the rules run, what is not
/// is reported once as "could not be checked" and never guessed at.
@Suite struct BuildValueRuleTests {
    /// A VIEW action with DEFAULT and BROWSABLE, as the Android rule tests write it.
    let view = AndroidRuleTests().view

    func appLink(_ scheme: String) -> String {
        RuleHarness.manifest(
            "<activity android:name=\".A\" android:exported=\"true\"><intent-filter android:autoVerify=\"true\">\(view)<data android:scheme=\"\(scheme)\" android:host=\"contoso.com\"/></intent-filter></activity>")
    }

    @Test func androidBuildValueUnresolved() throws {
        let text = appLink("${redirectScheme}")
        #expect(
            try RuleHarness.run(BuildValueUnresolved(), text) == [
                "3:285 android:scheme \"${redirectScheme}\" is filled in at build time and could not be checked; give --placeholder redirectScheme=VALUE"
            ])
        // Given the value, nothing is left to report, and the other rules see the real scheme.
        let values = BuildValues(placeholders: ["redirectScheme": "com.contoso.files"])
        #expect(try RuleHarness.run(BuildValueUnresolved(), text, values: values).isEmpty)
        #expect(try RuleHarness.run(AutoVerifyCustomScheme(), text, values: values).count == 1)
        let resource = appLink("@string/scheme")
        #expect(try RuleHarness.run(BuildValueUnresolved(), resource).first?.hasSuffix("give --resources (for @string/scheme)") == true)
        #expect(try RuleHarness.run(BuildValueUnresolved(), resource, values: BuildValues(strings: ["scheme": "https"])).isEmpty)
        #expect(try RuleHarness.run(BuildValueUnresolved(), appLink("https")).isEmpty)
    }

    /// The false error partner teams met: an autoVerify filter whose only scheme is a placeholder is not "without
    /// an http or https scheme"; it is unknown.
    @Test func placeholderSchemeIsNotAnAutoVerifyError() throws {
        #expect(try RuleHarness.run(AutoVerifyCustomScheme(), appLink("${redirectScheme}")).isEmpty)
        #expect(try RuleHarness.run(DataSchemeSyntax(), appLink("${redirectScheme}")).isEmpty)
        #expect(try RuleHarness.run(SchemeNotReverseDomain(), appLink("@string/scheme")).isEmpty)
    }

    @Test func iosBuildSettingUnresolved() throws {
        let plist = """
            <key>CFBundleURLTypes</key><array><dict><key>CFBundleURLName</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>\
            <key>CFBundleURLSchemes</key><array><string>${APP_SCHEME}</string></array></dict></array>
            """
        #expect(
            try RuleHarness.run(BuildSettingUnresolved(), plist: plist) == [
                "3:148 \"${APP_SCHEME}\" is a build setting and could not be checked; give --build-setting APP_SCHEME=VALUE",
                "3:67 \"$(PRODUCT_BUNDLE_IDENTIFIER)\" is a build setting and could not be checked; give --build-setting PRODUCT_BUNDLE_IDENTIFIER=VALUE",
            ])
        let values = BuildValues(buildSettings: ["PRODUCT_BUNDLE_IDENTIFIER": "com.contoso.files", "APP_SCHEME": "contoso files"])
        #expect(try RuleHarness.run(BuildSettingUnresolved(), plist: plist, values: values).isEmpty)
        // The filled-in value is checked like any other.
        #expect(try RuleHarness.run(SchemeSyntax(), plist: plist, values: values) == ["3:148 \"contoso files\" is not a valid URL scheme"])
    }

    @Test func substitutionKeepsUnknownReferencesAndAppliesModifiers() {
        let values = BuildValues(placeholders: ["a": "x"], buildSettings: ["PRODUCT_NAME": "My App", "S": "Contoso"])
        #expect(values.resolvingAndroid("${a}.${b}") == "x.${b}")
        #expect(values.resolvingAndroid("${a") == "${a")
        #expect(values.resolvingBuildSettings("com.contoso.$(PRODUCT_NAME:rfc1034identifier)") == "com.contoso.My-App")
        #expect(values.resolvingBuildSettings("${S:lower}-$(S:upper)-$(S:bogus)") == "contoso-CONTOSO-$(S:bogus)")
        #expect(BuildValues.unresolvedReferences(in: "${a}.$(B)") == ["${a}", "$(B)"])
    }

    @Test func stringResourcesAreReadFromStringsXML() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("strings-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("<resources><string name=\"scheme\">com.contoso.files</string><string name=\"q\">\"a b\"</string></resources>".utf8)
            .write(to: file)
        #expect(try StringResources.read(path: file.path) == ["scheme": "com.contoso.files", "q": "a b"])
        try Data("<manifest/>".utf8).write(to: file)
        #expect(throws: LintUsageError.self) { try StringResources.read(path: file.path) }
    }
}
