import SignInProtocolCore
import Testing

@testable import ManifestLint

/// One test per Android rule (named after its id): it fires on the mistake, at the right place, and stays silent
/// on the corrected document.
@Suite struct AndroidRuleTests {
    let view = """
        <action android:name="android.intent.action.VIEW"/>\
        <category android:name="android.intent.category.DEFAULT"/>\
        <category android:name="android.intent.category.BROWSABLE"/>
        """

    @Test func androidAuthActivityMissing() throws {
        let other = RuleHarness.manifest("<activity android:name=\".Other\" android:exported=\"true\"/>")
        #expect(
            try RuleHarness.run(AuthActivityMissing(), other) == [
                "1:70 UrlSchemes names auth activity com.contoso.files.AuthActivity of com.contoso.files, which this manifest does not declare"
            ])
        // Found by its fully qualified name too, and entries of other packages are not this manifest's business.
        let qualified = RuleHarness.manifest("<activity android:name=\"com.contoso.files.AuthActivity\"/>")
        #expect(try RuleHarness.run(AuthActivityMissing(), qualified).isEmpty)
        #expect(try RuleHarness.run(AuthActivityMissing(), other.replacingOccurrences(of: "com.contoso.files", with: "org.other")).isEmpty)
    }

    @Test func androidAuthActivityNotExported() throws {
        let privateOne = RuleHarness.manifest("<activity android:name=\".AuthActivity\" android:exported=\"false\"/>")
        #expect(try RuleHarness.run(AuthActivityNotExported(), privateOne).map { String($0.prefix(5)) } == ["3:58 "])
        let noFilter = RuleHarness.manifest("<activity android:name=\".AuthActivity\"/>")
        #expect(try RuleHarness.run(AuthActivityNotExported(), noFilter).count == 1)
        let withFilter = RuleHarness.manifest("<activity android:name=\".AuthActivity\"><intent-filter>\(view)</intent-filter></activity>")
        #expect(try RuleHarness.run(AuthActivityNotExported(), withFilter).isEmpty)
    }

    @Test func androidExportedMissing() throws {
        let text = RuleHarness.manifest("<activity android:name=\".A\"><intent-filter>\(view)</intent-filter></activity>")
        #expect(try RuleHarness.run(ExportedMissing(), text, targetSdk: 31).first?.hasPrefix("3:1 <activity") == true)
        #expect(try RuleHarness.run(ExportedMissing(), text).first?.hasPrefix("3:1 (warning)") == true)
        #expect(try RuleHarness.run(ExportedMissing(), text, targetSdk: 30).isEmpty)
        let fromManifest = RuleHarness.manifest(
            "<service android:name=\".S\"><intent-filter><action android:name=\"x\"/></intent-filter></service>",
            sdk: "<uses-sdk android:targetSdkVersion=\"34\"/>")
        #expect(try RuleHarness.run(ExportedMissing(), fromManifest).count == 1)
        let declared = text.replacingOccurrences(of: "\".A\"", with: "\".A\" android:exported=\"true\"")
        #expect(try RuleHarness.run(ExportedMissing(), declared, targetSdk: 34).isEmpty)
    }

    @Test func androidViewFilterNotBrowsable() throws {
        let text = RuleHarness.manifest(
            "<activity android:name=\".A\"><intent-filter><action android:name=\"android.intent.action.VIEW\"/><data android:scheme=\"com.contoso.x\"/></intent-filter></activity>"
        )
        // A sign-in receiver (its filter matches the redirect URI) must be reachable from a browser ...
        #expect(
            try RuleHarness.run(ViewFilterNotBrowsable(), text, redirectURIs: ["com.contoso.x:/cb"])
                == ["3:29 VIEW intent filter of <activity android:name=\".A\"> lacks category DEFAULT and BROWSABLE"])
        // ... any other deep link may be app-internal: info only.
        #expect(
            try RuleHarness.run(ViewFilterNotBrowsable(), text)
                == ["3:29 (info) VIEW intent filter of <activity android:name=\".A\"> lacks category DEFAULT and BROWSABLE (no browser reaches this filter and it is not a sign-in receiver, so info only)"])
        // A BROWSABLE filter without DEFAULT is meant for browsers and never matched: an error whoever declares it.
        let browsableOnly = text.replacingOccurrences(
            of: "<data", with: "<category android:name=\"android.intent.category.BROWSABLE\"/><data")
        #expect(
            try RuleHarness.run(ViewFilterNotBrowsable(), browsableOnly)
                == ["3:29 VIEW intent filter of <activity android:name=\".A\"> lacks category DEFAULT"])
        let mimeOnly = text.replacingOccurrences(of: "android:scheme=\"com.contoso.x\"", with: "android:mimeType=\"application/pdf\"")
        #expect(try RuleHarness.run(ViewFilterNotBrowsable(), mimeOnly).isEmpty)
    }

    func data(_ attributes: String) -> String {
        RuleHarness.manifest("<activity android:name=\".A\" android:exported=\"true\"><intent-filter>\(view)<data \(attributes)/></intent-filter></activity>")
    }

    @Test func androidSchemeSyntax() throws {
        // Browsers lower-case the scheme, so an upper-case one in a BROWSABLE VIEW filter never receives the
        // redirect: an error on any activity, and Dropbox's SDK receiver is named as such.
        let dropbox = RuleHarness.manifest(
            "<activity android:name=\"com.dropbox.core.android.AuthActivity\" android:exported=\"true\"><intent-filter>\(view)<data android:scheme=\"db-AB12CD\"/></intent-filter></activity>")
        #expect(
            try RuleHarness.run(DataSchemeSyntax(), dropbox)
                == ["3:294 android:scheme \"db-AB12CD\" has upper case letters; Android matches schemes in lower case (Dropbox's sign-in receiver)"])
        let unknownActivity = dropbox.replacingOccurrences(of: "com.dropbox.core.android.AuthActivity", with: ".Links")
        #expect(try RuleHarness.run(DataSchemeSyntax(), unknownActivity).map { $0.prefix(5) } == ["3:263"])
        // Filters no browser reaches (no BROWSABLE, or a private activity) keep the downgrade to info.
        let notBrowsable = unknownActivity.replacingOccurrences(of: "android.intent.category.BROWSABLE", with: "com.contoso.INTERNAL")
        #expect(try RuleHarness.run(DataSchemeSyntax(), notBrowsable).first?.hasPrefix("3:250 (info)") == true)
        let privateActivity = unknownActivity.replacingOccurrences(of: "android:exported=\"true\"", with: "android:exported=\"false\"")
        #expect(try RuleHarness.run(DataSchemeSyntax(), privateActivity).first?.contains("(info)") == true)
        #expect(try RuleHarness.run(DataSchemeSyntax(), data("android:scheme=\"Com.Contoso\"")).count == 1)
        #expect(try RuleHarness.run(DataSchemeSyntax(), data("android:scheme=\"com.contoso:\"")).count == 1)
        #expect(try RuleHarness.run(DataSchemeSyntax(), data("android:scheme=\"\"")).count == 1)
        #expect(try RuleHarness.run(DataSchemeSyntax(), data("android:scheme=\"1abc\"")).count == 1)
        #expect(try RuleHarness.run(DataSchemeSyntax(), data("android:scheme=\"com.contoso\"")).isEmpty)
        #expect(try RuleHarness.run(DataSchemeSyntax(), data("android:scheme=\"${appAuthRedirectScheme}\"")).isEmpty)
    }

    @Test func androidHostWildcard() throws {
        #expect(try RuleHarness.run(HostWildcard(), data("android:scheme=\"https\" android:host=\"a.*.contoso.com\"")).count == 1)
        #expect(try RuleHarness.run(HostWildcard(), data("android:scheme=\"https\" android:host=\"*contoso.com\"")).count == 1)
        #expect(try RuleHarness.run(HostWildcard(), data("android:scheme=\"https\" android:host=\"*.contoso.com\"")).isEmpty)
        #expect(try RuleHarness.run(HostWildcard(), data("android:scheme=\"https\" android:host=\"*\"")).isEmpty)
        // On a BROWSABLE filter the finding is an error though no sign-in receiver is known; elsewhere info.
        #expect(try RuleHarness.run(HostWildcard(), data("android:scheme=\"https\" android:host=\"a.*.b\"")).first?.contains("(info)") == false)
        let internalLink = data("android:scheme=\"https\" android:host=\"a.*.b\"")
            .replacingOccurrences(of: "android.intent.category.BROWSABLE", with: "com.contoso.INTERNAL")
        #expect(try RuleHarness.run(HostWildcard(), internalLink).first?.contains("(info)") == true)
    }

    @Test func androidPathWithoutSlash() throws {
        #expect(try RuleHarness.run(PathWithoutSlash(), data("android:scheme=\"https\" android:path=\"signin\"")).count == 1)
        #expect(try RuleHarness.run(PathWithoutSlash(), data("android:scheme=\"https\" android:pathPrefix=\"a/b\"")).count == 1)
        #expect(try RuleHarness.run(PathWithoutSlash(), data("android:scheme=\"https\" android:pathPrefix=\"/signin\"")).isEmpty)
        #expect(try RuleHarness.run(PathWithoutSlash(), data("android:scheme=\"https\" android:path=\"cb\"")).first?.contains("(info)") == false)
    }

    @Test func androidAutoverifyCustomScheme() throws {
        let mixed = data("android:scheme=\"https\"/><data android:scheme=\"com.contoso\"")
            .replacingOccurrences(of: "<intent-filter>", with: "<intent-filter android:autoVerify=\"true\">")
        #expect(try RuleHarness.run(AutoVerifyCustomScheme(), mixed).count == 1)
        let web = data("android:scheme=\"https\"/><data android:scheme=\"http\"")
            .replacingOccurrences(of: "<intent-filter>", with: "<intent-filter android:autoVerify=\"true\">")
        #expect(try RuleHarness.run(AutoVerifyCustomScheme(), web).isEmpty)
        #expect(try RuleHarness.run(AutoVerifyCustomScheme(), mixed.replacingOccurrences(of: "android:autoVerify=\"true\"", with: "")).isEmpty)
    }

    @Test func androidSchemeClaimedTwice() throws {
        let filter = "<intent-filter>\(view)<data android:scheme=\"com.contoso\"/></intent-filter>"
        let twice = RuleHarness.manifest(
            "<activity android:name=\".A\" android:exported=\"true\">\(filter)</activity>\n<activity android:name=\".B\" android:exported=\"true\">\(filter)</activity>")
        let found = try RuleHarness.run(SchemeClaimedTwice(), twice)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("4:") == true)
        let once = RuleHarness.manifest("<activity android:name=\".A\" android:exported=\"true\">\(filter)\(filter)</activity>")
        #expect(try RuleHarness.run(SchemeClaimedTwice(), once).isEmpty)
        // One scheme routed to two activities by host is not claimed twice.
        let byHost = RuleHarness.manifest(
            "<activity android:name=\".A\" android:exported=\"true\">\(filter)</activity>\n<activity android:name=\".B\" android:exported=\"true\">\(filter)</activity>"
                .replacingOccurrences(of: "<data android:scheme=\"com.contoso\"/>", with: "<data android:scheme=\"com.contoso\" android:host=\"HOST\"/>"))
        let routed = byHost.replacingOccurrences(of: "HOST", with: "mail").replacingOccurrences(
            of: "\".B\" android:exported=\"true\"><intent-filter>\(view)<data android:scheme=\"com.contoso\" android:host=\"mail\"",
            with: "\".B\" android:exported=\"true\"><intent-filter>\(view)<data android:scheme=\"com.contoso\" android:host=\"calendar\"")
        #expect(try RuleHarness.run(SchemeClaimedTwice(), routed).isEmpty)
        #expect(try RuleHarness.run(SchemeClaimedTwice(), byHost.replacingOccurrences(of: "HOST", with: "mail")).count == 1)
    }

    /// Android combines a filter's `<data>` attributes: every scheme with every host with every path
    /// (https://developer.android.com/guide/topics/manifest/data-element); claims list paths by kind, then as written.
    @Test func linkClaimsCombineHostsWithPathsByKindThenInDocumentOrder() throws {
        let xml = RuleHarness.manifest(
            "<activity android:name=\".A\" android:exported=\"true\"><intent-filter>\(view)<data android:scheme=\"Com.Contoso\" android:host=\"Mail\" android:pathPrefix=\"/p\"/><data android:path=\"/a\"/><data android:pathPrefix=\"/q\" android:path=\"/b\"/></intent-filter></activity>")
        let root = try XMLReader().read(Array(xml.utf8)).root
        let claims = LinkClaim.claims(of: AndroidManifest(root: root)).map(\.claim.description)
        #expect(claims == ["com.contoso://mail/a", "com.contoso://mail/b", "com.contoso://mail/p (pathPrefix)", "com.contoso://mail/q (pathPrefix)"])
    }

    @Test func androidSchemeNotReverseDomain() throws {
        #expect(try RuleHarness.run(SchemeNotReverseDomain(), data("android:scheme=\"contoso\""), redirectURIs: ["contoso:/cb"]).first?.contains("(") == false)
        // MSAL prescribes msal<client id> for its receiver: not the app's choice, no finding.
        let msal = RuleHarness.manifest(
            "<activity android:name=\"com.microsoft.identity.client.BrowserTabActivity\" android:exported=\"true\"><intent-filter>\(view)<data android:scheme=\"msal9851987a-55e5\" android:host=\"auth\"/></intent-filter></activity>")
        #expect(try RuleHarness.run(SchemeNotReverseDomain(), msal).isEmpty)
        // RFC 8252 §7.1 is about redirect schemes: otpauth in an ordinary activity is info.
        #expect(try RuleHarness.run(SchemeNotReverseDomain(), data("android:scheme=\"otpauth\"")).first?.hasPrefix("3:259 (info)") == true)
        #expect(try RuleHarness.run(SchemeNotReverseDomain(), data("android:scheme=\"com.contoso\"")).isEmpty)
        #expect(try RuleHarness.run(SchemeNotReverseDomain(), data("android:scheme=\"https\"")).isEmpty)
    }

    @Test func androidVersionCodeBelowMinimum() throws {
        let auth = "<activity android:name=\".AuthActivity\" android:exported=\"true\"/>"
        #expect(
            try RuleHarness.run(VersionCodeBelowMinimum(), RuleHarness.manifest(auth, versionCode: "1199")) == [
                "1:119 android:versionCode 1199 is below 1200, the minimum UrlSchemes gives for com.contoso.files: Office will not offer app-to-app sign-in to this build"
            ])
        #expect(try RuleHarness.run(VersionCodeBelowMinimum(), RuleHarness.manifest(auth, versionCode: "1200")).isEmpty)
        #expect(try RuleHarness.run(VersionCodeBelowMinimum(), RuleHarness.manifest(auth, versionCode: "1"), schemes: nil).isEmpty)
    }
}
