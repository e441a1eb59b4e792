import Foundation
import Testing

@testable import ManifestLint

/// One test per App Links / Universal Links rule (named after its id), on small association files.
@Suite struct AppLinksRuleTests {
    static let fingerprint = (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":")

    static func statement(package: String = "com.contoso.files", relation: String = AssetLinksDocument.handleAllURLs, print: String = fingerprint) -> String {
        """
        {"relation": ["\(relation)"], "target": {"namespace": "android_app", "package_name": "\(package)", "sha256_cert_fingerprints": ["\(print)"]}}
        """
    }

    @Test func assetlinksShape() throws {
        #expect(try RuleHarness.run(AssetLinksShape(), assetLinks: "[\(Self.statement())]").isEmpty)
        #expect(try RuleHarness.run(AssetLinksShape(), assetLinks: "{}") == ["1:1 the top level is a object, not a list of statements"])
        #expect(
            try RuleHarness.run(AssetLinksShape(), assetLinks: "[{\"relation\": \"x\", \"target\": {\"namespace\": \"android_app\"}}]") == [
                "1:15 statement 0 has no \"relation\" list of strings",
                "1:30 the android_app target of statement 0 has no \"package_name\"",
                "1:30 the android_app target of statement 0 has no \"sha256_cert_fingerprints\" list",
            ])
        // Web targets have no package; only the shape of relation and target is checked for them.
        #expect(try RuleHarness.run(AssetLinksShape(), assetLinks: "[{\"relation\": [\"a\"], \"target\": {\"namespace\": \"web\", \"site\": \"https://x\"}}]").isEmpty)
    }

    @Test func assetlinksHandleAllUrlsMissing() throws {
        #expect(try RuleHarness.run(AssetLinksHandleAllURLsMissing(), assetLinks: "[\(Self.statement())]").isEmpty)
        let logins = "[\(Self.statement(relation: "delegate_permission/common.get_login_creds"))]"
        #expect(try RuleHarness.run(AssetLinksHandleAllURLsMissing(), assetLinks: logins).first?.hasPrefix("1:1 no statement grants") == true)
    }

    @Test func assetlinksFingerprintFormat() throws {
        #expect(try RuleHarness.run(AssetLinksFingerprintFormat(), assetLinks: "[\(Self.statement())]").isEmpty)
        let lower = "[\(Self.statement(print: Self.fingerprint.lowercased()))]"
        #expect(try RuleHarness.run(AssetLinksFingerprintFormat(), assetLinks: lower).first?.hasSuffix("(use upper case)") == true)
        let sha1 = "[\(Self.statement(print: String(Self.fingerprint.prefix(59))))]"
        #expect(try RuleHarness.run(AssetLinksFingerprintFormat(), assetLinks: sha1).count == 1)
    }

    static let aasa = """
        {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.contoso.files"], "components": [
          {"/": "/auth/*", "exclude": true, "comment": "no web sign-in pages"},
          {"/": "/auth/callback"},
          {"/": "/open/*"}
        ]}]}}
        """

    @Test func aasaShape() throws {
        #expect(try RuleHarness.run(AppSiteAssociationShape(), aasa: Self.aasa).isEmpty)
        #expect(try RuleHarness.run(AppSiteAssociationShape(), aasa: "{\"webcredentials\": {}}") == ["1:1 there is no \"applinks\" object: no Universal Link opens the app"])
        #expect(
            try RuleHarness.run(AppSiteAssociationShape(), aasa: "{\"applinks\": {\"details\": [{\"appID\": \"ABCDE12345.a\"}]}}")
                == ["1:27 details[0] has neither components nor paths: it matches no URL"])
        // The legacy form (appID and paths) is still read by iOS.
        #expect(try RuleHarness.run(AppSiteAssociationShape(), aasa: "{\"applinks\": {\"apps\": [], \"details\": [{\"appID\": \"ABCDE12345.a\", \"paths\": [\"*\"]}]}}").isEmpty)
    }

    @Test func aasaAppIdFormat() throws {
        #expect(try RuleHarness.run(AppSiteAssociationAppIDFormat(), aasa: Self.aasa).isEmpty)
        let bare = Self.aasa.replacingOccurrences(of: "ABCDE12345.com.contoso.files", with: "com.contoso.files")
        #expect(try RuleHarness.run(AppSiteAssociationAppIDFormat(), aasa: bare) == ["1:39 \"com.contoso.files\" is not an app ID of the form TEAMID.bundle-id"])
        let lower = Self.aasa.replacingOccurrences(of: "ABCDE12345", with: "abcde12345")
        #expect(try RuleHarness.run(AppSiteAssociationAppIDFormat(), aasa: lower).count == 1)
    }

    @Test func aasaComponentKeys() throws {
        #expect(try RuleHarness.run(AppSiteAssociationComponentKeys(), aasa: Self.aasa).isEmpty)
        let typo = Self.aasa.replacingOccurrences(of: "\"exclude\": true", with: "\"excluded\": true")
        #expect(try RuleHarness.run(AppSiteAssociationComponentKeys(), aasa: typo) == ["2:20 unknown components key \"excluded\": iOS ignores it"])
        let wrongType = Self.aasa.replacingOccurrences(of: "\"exclude\": true", with: "\"exclude\": \"true\"")
        #expect(try RuleHarness.run(AppSiteAssociationComponentKeys(), aasa: wrongType) == ["2:31 components key \"exclude\" has a string value"])
    }

    @Test func aasaRedirectExcluded() throws {
        let context = LintContext(redirectURIs: ["https://contoso.com/auth/callback", "com.contoso.files:/cb"])
        #expect(
            try RuleHarness.run(AppSiteAssociationRedirectExcluded(), aasa: Self.aasa, context: context)
                == ["2:3 redirect URI https://contoso.com/auth/callback (--redirect-uri) is excluded here for ABCDE12345.com.contoso.files: iOS opens it in the browser"])
        // With the callback listed before the exclude, the first match lets the app open it.
        let fixed = Self.aasa.replacingOccurrences(of: "{\"/\": \"/auth/callback\"},\n", with: "")
            .replacingOccurrences(of: "\"components\": [\n", with: "\"components\": [\n  {\"/\": \"/auth/callback\"},\n")
        #expect(try RuleHarness.run(AppSiteAssociationRedirectExcluded(), aasa: fixed, context: context).isEmpty)
        #expect(AppLinkPattern.matches("/a/*/c?", "/a/b/x/cd"))
        #expect(!AppLinkPattern.matches("/a/*", "/b/a/"))
        // A file for another host does not answer for the redirect.
        var elsewhere = context
        elsewhere.associationHost = "files.contoso.com"
        #expect(try RuleHarness.run(AppSiteAssociationRedirectExcluded(), aasa: Self.aasa, context: elsewhere).isEmpty)
    }

    /// Apple's components keys, one at a time: a missing key matches anything, `?` as a string or per query item,
    /// `#`, `caseSensitive`, `percentEncoded`; legacy `paths` only count without `components`.
    @Test func componentMatchingAsAppleDocumentsIt() throws {
        func decides(_ components: String, _ url: String) throws -> Bool? {
            let json = "{\"applinks\": {\"details\": [{\"appIDs\": [\"ABCDE12345.a\"], \(components)}]}}"
            let document = AppSiteAssociationDocument(root: try PositionedJSONReader.parse(Array(json.utf8)))
            return try document.details[0].decision(for: #require(RedirectURI(url))).map { !$0.excluded }
        }
        #expect(try decides(##""components": [{"#": "x"}]"##, "https://h/any/path#x") == true)
        #expect(try decides(#""components": [{"/": "/cb", "?": "code=*"}]"#, "https://h/cb?code=1") == true)
        #expect(try decides(#""components": [{"/": "/cb", "?": "code=*"}]"#, "https://h/cb?state=1") == nil)
        #expect(try decides(#""components": [{"?": {"code": "?*"}}]"#, "https://h/cb?state=s&code=1") == true)
        #expect(try decides(#""components": [{"?": {"code": "?*"}}]"#, "https://h/cb?code=") == nil)
        #expect(try decides(#""components": [{"/": "/CB"}]"#, "https://h/cb") == nil)
        #expect(try decides(#""components": [{"/": "/CB", "caseSensitive": false}]"#, "https://h/cb") == true)
        #expect(try decides(#""components": [{"/": "/a b"}]"#, "https://h/a%20b") == nil)
        #expect(try decides(#""components": [{"/": "/a b", "percentEncoded": false}]"#, "https://h/a%20b") == true)
        #expect(try decides(#""components": [{"/": "/o/*", "exclude": true}, {"/": "/o/cb"}]"#, "https://h/o/cb") == false)
        #expect(try decides(#""paths": ["NOT /o/*", "/o/cb"]"#, "https://h/o/cb") == false)
        #expect(try decides(#""paths": ["*"], "components": [{"/": "/x"}]"#, "https://h/o/cb") == nil)
    }

    @Test func aasaRedirectUnmatched() throws {
        let context = LintContext(redirectURIs: ["https://contoso.com/open/file", "https://contoso.com/signin/done"])
        #expect(
            try RuleHarness.run(AppSiteAssociationRedirectUnmatched(), aasa: Self.aasa, context: context)
                == ["1:27 redirect URI https://contoso.com/signin/done (--redirect-uri) matches no components entry for ABCDE12345.com.contoso.files: iOS opens it in the browser"])
        let covered = LintContext(redirectURIs: ["https://contoso.com/open/file"])
        #expect(try RuleHarness.run(AppSiteAssociationRedirectUnmatched(), aasa: Self.aasa, context: covered).isEmpty)
        // Another app's detail says nothing about this app's redirect.
        var otherApp = context
        otherApp.appID = "ZZZZZ99999.com.other"
        #expect(try RuleHarness.run(AppSiteAssociationRedirectUnmatched(), aasa: Self.aasa, context: otherApp).isEmpty)
    }

    @Test func aasaWebcredentialsMissing() throws {
        let context = LintContext(redirectURIs: ["https://contoso.com/auth/callback"])
        #expect(
            try RuleHarness.run(AppSiteAssociationWebCredentialsMissing(), aasa: Self.aasa, context: context)
                == ["1:1 https sign-in callback https://contoso.com/auth/callback (--redirect-uri) needs ABCDE12345.com.contoso.files in webcredentials.apps (iOS 17.4+)"])
        let listed = Self.aasa.replacingOccurrences(
            of: "{\"applinks\"", with: "{\"webcredentials\": {\"apps\": [\"ABCDE12345.com.contoso.files\"]}, \"applinks\"")
        #expect(try RuleHarness.run(AppSiteAssociationWebCredentialsMissing(), aasa: listed, context: context).isEmpty)
        // A link an app claims is not a sign-in callback: applinks alone is enough for it.
        var linkOnly = LintContext()
        linkOnly.redirectClaims = [try #require(RedirectClaim("https://contoso.com/open/x", origin: "m.xml:1:1", isSignInCallback: false))]
        #expect(try RuleHarness.run(AppSiteAssociationWebCredentialsMissing(), aasa: Self.aasa, context: linkOnly).isEmpty)
    }

    @Test func assetlinksRedirectExcluded() throws {
        func dynamic(_ rules: String) -> String {
            Self.statement().replacingOccurrences(
                of: "\"target\"",
                with: "\"relation_extensions\": {\"\(AssetLinksDocument.handleAllURLs)\": {\"dynamic_app_link_components\": [\(rules)]}}, \"target\"")
        }
        let context = LintContext(redirectURIs: ["https://contoso.com/oauth2/callback?code=1"])
        let excluded = "[\(dynamic(#"{"/": "/oauth2/*", "exclude": true}, {"/": "*"}"#))]"
        #expect(
            try RuleHarness.run(AssetLinksRedirectExcluded(), assetLinks: excluded, context: context)
                == ["1:166 https://contoso.com/oauth2/callback?code=1 (--redirect-uri) is excluded by this dynamic rule for com.contoso.files: Android 15+ opens it in the browser"])
        let unmatched = "[\(dynamic(#"{"/": "/open/*"}"#))]"
        #expect(try RuleHarness.run(AssetLinksRedirectExcluded(), assetLinks: unmatched, context: context).first?.contains("matches no dynamic rule") == true)
        let allowed = "[\(dynamic(#"{"/": "/oauth2/callback", "?": {"code": "*"}}, {"/": "/oauth2/*", "exclude": true}"#))]"
        #expect(try RuleHarness.run(AssetLinksRedirectExcluded(), assetLinks: allowed, context: context).isEmpty)
        // Without dynamic rules the manifest's filters alone decide.
        #expect(try RuleHarness.run(AssetLinksRedirectExcluded(), assetLinks: "[\(Self.statement())]", context: context).isEmpty)
    }

    let appLink = RuleHarness.manifest(
        """
        <activity android:name=".Open" android:exported="true"><intent-filter android:autoVerify="true">\
        <action android:name="android.intent.action.VIEW"/><category android:name="android.intent.category.DEFAULT"/>\
        <category android:name="android.intent.category.BROWSABLE"/>\
        <data android:scheme="https" android:host="contoso.com"/><data android:host="*.files.contoso.com"/></intent-filter></activity>
        """)

    func context(_ hosts: [String: String], certificates: [String] = []) throws -> LintContext {
        var context = LintContext()
        for (host, json) in hosts { context.assetLinks[host] = AssetLinksDocument(root: try PositionedJSONReader.parse(Array(json.utf8))) }
        context.signingCertificates = certificates
        return context
    }

    @Test func androidApplinksHostUnverified() throws {
        let good = "[\(Self.statement())]"
        // Nothing given: nothing to compare, no finding.
        #expect(try RuleHarness.run(AppLinksHostUnverified(), appLink).isEmpty)
        let both = try context(["contoso.com": good, "files.contoso.com": good], certificates: [Self.fingerprint])
        #expect(try RuleHarness.run(AppLinksHostUnverified(), appLink, values: .none, redirectURIs: [], context: both).isEmpty)
        let oneMissing = try context(["contoso.com": good])
        #expect(
            try RuleHarness.run(AppLinksHostUnverified(), appLink, context: oneMissing)
                == ["3:343 no assetlinks.json was given for autoVerify host files.contoso.com (--assetlinks files.contoso.com=FILE)"])
        let otherPackage = try context(["contoso.com": "[\(Self.statement(package: "com.other"))]", "files.contoso.com": good])
        #expect(try RuleHarness.run(AppLinksHostUnverified(), appLink, context: otherPackage).first?.hasSuffix("to no android_app com.contoso.files") == true)
        let otherKey = try context(["contoso.com": good, "files.contoso.com": good], certificates: [String(repeating: "AB:", count: 31) + "AB"])
        #expect(try RuleHarness.run(AppLinksHostUnverified(), appLink, context: otherKey).count == 2)
    }

    @Test func iosApplinksDomainUnassociated() throws {
        let entitlements = """
            <key>application-identifier</key><string>$(AppIdentifierPrefix)com.contoso.files</string>
            <key>com.apple.developer.associated-domains</key>
            <array><string>applinks:contoso.com</string><string>applinks:www.contoso.com?mode=developer</string><string>webcredentials:contoso.com</string></array>
            """
        var context = LintContext(buildValues: BuildValues(buildSettings: ["AppIdentifierPrefix": "ABCDE12345."]))
        #expect(try RuleHarness.run(AppLinksDomainUnassociated(), entitlements: entitlements, context: context).isEmpty)
        context.appSiteAssociations["contoso.com"] = AppSiteAssociationDocument(root: try PositionedJSONReader.parse(Array(Self.aasa.utf8)))
        #expect(
            try RuleHarness.run(AppLinksDomainUnassociated(), entitlements: entitlements, context: context)
                == ["5:45 no apple-app-site-association was given for applinks:www.contoso.com (--aasa www.contoso.com=FILE)"])
        context.appSiteAssociations["www.contoso.com"] = AppSiteAssociationDocument(
            root: try PositionedJSONReader.parse(Array(Self.aasa.replacingOccurrences(of: "ABCDE12345", with: "ZZZZZ99999").utf8)))
        #expect(
            try RuleHarness.run(AppLinksDomainUnassociated(), entitlements: entitlements, context: context)
                == ["5:45 the apple-app-site-association of www.contoso.com does not name ABCDE12345.com.contoso.files in applinks.details"])
        // Without the build setting the app ID is unknown: info, not a guess.
        context.buildValues = .none
        #expect(try RuleHarness.run(AppLinksDomainUnassociated(), entitlements: entitlements, context: context).first?.hasPrefix("2:1 (info)") == true)
    }

    @Test func iosWebcredentialsDomainUnassociated() throws {
        let entitlements = """
            <key>application-identifier</key><string>ABCDE12345.com.contoso.files</string>
            <key>com.apple.developer.associated-domains</key>
            <array><string>applinks:contoso.com</string><string>webcredentials:contoso.com</string></array>
            """
        var context = LintContext()
        #expect(try RuleHarness.run(WebCredentialsDomainUnassociated(), entitlements: entitlements, context: context).isEmpty)
        context.appSiteAssociations["contoso.com"] = AppSiteAssociationDocument(root: try PositionedJSONReader.parse(Array(Self.aasa.utf8)))
        #expect(
            try RuleHarness.run(WebCredentialsDomainUnassociated(), entitlements: entitlements, context: context)
                == ["5:45 the apple-app-site-association of contoso.com does not list ABCDE12345.com.contoso.files in webcredentials.apps"])
        let listed = Self.aasa.replacingOccurrences(
            of: "{\"applinks\"", with: "{\"webcredentials\": {\"apps\": [\"ABCDE12345.com.contoso.files\"]}, \"applinks\"")
        context.appSiteAssociations["contoso.com"] = AppSiteAssociationDocument(root: try PositionedJSONReader.parse(Array(listed.utf8)))
        #expect(try RuleHarness.run(WebCredentialsDomainUnassociated(), entitlements: entitlements, context: context).isEmpty)
    }
}
