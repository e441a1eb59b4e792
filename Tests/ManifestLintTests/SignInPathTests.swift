import Foundation
import Testing

@testable import ManifestLint

/// Which activities receive sign-in, how redirect URIs match filters, and links claimed twice across apps.
@Suite struct SignInPathTests {
    func filter(_ data: String) throws -> IntentFilter {
        let text = "<intent-filter xmlns:android=\"http://schemas.android.com/apk/res/android\"><action android:name=\"android.intent.action.VIEW\"/>\(data)</intent-filter>"
        return IntentFilter(element: try XMLReader().read(Array(text.utf8)).root)
    }

    @Test func redirectURIsMatchAsAndroidsDataTest() throws {
        let custom = try filter("<data android:scheme=\"com.contoso.files\"/>")
        #expect(RedirectURI("com.contoso.files:/oauth2redirect")?.matches(custom) == true)
        #expect(RedirectURI("COM.CONTOSO.FILES://anything/at/all")?.matches(custom) == true)
        #expect(RedirectURI("com.other:/oauth2redirect")?.matches(custom) == false)

        let web = try filter("<data android:scheme=\"https\" android:host=\"*.contoso.com\" android:pathPrefix=\"/auth\"/>")
        #expect(RedirectURI("https://login.contoso.com/auth/done?x=1")?.matches(web) == true)
        #expect(RedirectURI("https://contoso.com/auth/done")?.matches(web) == false)
        #expect(RedirectURI("https://login.contoso.com/other")?.matches(web) == false)
        #expect(RedirectURI("https:/auth")?.matches(web) == false)

        let glob = try filter("<data android:scheme=\"https\" android:host=\"a.b\" android:pathPattern=\"/cb/.*/end\"/>")
        #expect(RedirectURI("https://a.b/cb/x/y/end")?.matches(glob) == true)
        #expect(RedirectURI("https://a.b/cb/end")?.matches(glob) == false)
        #expect(RedirectURI("no scheme here") == nil)
    }

    @Test func receiversComeFromUrlSchemesRedirectURIsAndKnownSDKs() throws {
        let text = RuleHarness.manifest(
            """
            <activity android:name=".AuthActivity" android:exported="true"/>
            <activity android:name="com.microsoft.identity.client.BrowserTabActivity" android:exported="true"/>
            <activity android:name=".Redirect" android:exported="true"><intent-filter><action android:name="android.intent.action.VIEW"/><data android:scheme="com.contoso.files" android:host="cb"/></intent-filter></activity>
            <activity android:name=".Other" android:exported="true"><intent-filter><action android:name="android.intent.action.VIEW"/><data android:scheme="mail"/></intent-filter></activity>
            """)
        let manifest = AndroidManifest(root: try XMLReader().read(Array(text.utf8)).root)
        let context = LintContext(urlSchemes: RuleHarness.contosoSchemes, redirectURIs: ["com.contoso.files://cb/done"])
        let receivers = SignInReceivers(manifest: manifest, context: context)
        let reasons = manifest.components.map { receivers.reason(for: $0) }
        #expect(reasons == [.urlSchemesEntry, .knownSDK("MSAL"), .redirectURI("com.contoso.files://cb/done"), nil])
    }

    @Test func exportedFalseOnAnSDKReceiverIsAnError() throws {
        let text = RuleHarness.manifest(
            "<activity android:name=\"net.openid.appauth.RedirectUriReceiverActivity\" android:exported=\"false\"/>")
        #expect(
            try RuleHarness.run(AuthActivityNotExported(), text, schemes: nil)
                == ["3:91 sign-in receiver <activity android:name=\"net.openid.appauth.RedirectUriReceiverActivity\"> is android:exported=\"false\": the browser cannot start it"])
    }

    func app(_ package: String, _ data: String) -> String {
        """
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="\(package)">
        <uses-sdk android:targetSdkVersion="34"/>
        <application><activity android:name=".Open" android:exported="true"><intent-filter>
        <action android:name="android.intent.action.VIEW"/><category android:name="android.intent.category.DEFAULT"/><category android:name="android.intent.category.BROWSABLE"/>
        \(data)
        </intent-filter></activity></application></manifest>
        """
    }

    @Test func linksClaimedByTwoAppsLintedTogether() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("claims-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for (folder, package, data) in [
            ("a", "com.contoso.a", "<data android:scheme=\"com.contoso.shared\" android:host=\"open\"/>"),
            ("b", "com.contoso.b", "<data android:scheme=\"com.contoso.shared\" android:host=\"open\"/>"),
            ("c", "com.contoso.c", "<data android:scheme=\"com.contoso.shared\" android:host=\"other\"/>"),
        ] {
            let dir = root.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data(app(package, data).utf8).write(to: dir.appendingPathComponent("AndroidManifest.xml"))
        }
        let report = try Linter().lint(paths: [root.path])
        let claims = report.findings.filter { $0.ruleID == "android-scheme-claimed-twice" }
        #expect(claims.count == 1)
        #expect(claims.first?.file.hasSuffix("b/AndroidManifest.xml") == true)
        #expect(claims.first?.message.hasPrefix("com.contoso.shared://open is also claimed by <activity android:name=\".Open\"> of com.contoso.a in ") == true)
    }
}
