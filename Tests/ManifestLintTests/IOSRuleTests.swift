import SignInProtocolCore
import Testing

@testable import ManifestLint

/// One test per Info.plist rule, named after its id.
@Suite struct IOSRuleTests {
    let urlTypes = """
        <key>CFBundleURLTypes</key>
        <array><dict><key>CFBundleURLName</key><string>com.contoso.files</string>\
        <key>CFBundleURLSchemes</key><array><string>com.contoso.files</string></array></dict></array>
        """

    @Test func iosUrlTypesMissing() throws {
        #expect(try RuleHarness.run(URLTypesMissing(), plist: "<key>A</key><string>b</string>") == ["2:1 Info.plist has no CFBundleURLTypes"])
        #expect(try RuleHarness.run(URLTypesMissing(), plist: urlTypes).isEmpty)
        // Nothing says Office opens an app without iOS UrlSchemes (a tvOS app, say).
        #expect(try RuleHarness.run(URLTypesMissing(), plist: "<key>A</key><string>b</string>", schemes: nil).isEmpty)
    }

    @Test func iosUrlTypesMalformed() throws {
        #expect(
            try RuleHarness.run(URLTypesMalformed(), plist: "<key>CFBundleURLTypes</key><dict/>")
                == ["3:28 CFBundleURLTypes is a dict, not an array"])
        let emptySchemes = "<key>CFBundleURLTypes</key><array><dict><key>CFBundleURLSchemes</key><array/></dict></array>"
        #expect(try RuleHarness.run(URLTypesMalformed(), plist: emptySchemes) == ["3:41 CFBundleURLSchemes of item 0 is empty"])
        let notString = "<key>CFBundleURLTypes</key><array><dict><key>CFBundleURLSchemes</key><array><integer>1</integer></array></dict></array>"
        #expect(try RuleHarness.run(URLTypesMalformed(), plist: notString).count == 1)
        #expect(
            try RuleHarness.run(URLTypesMalformed(), plist: "<key>CFBundleURLTypes</key><array/>")
                == ["3:1 CFBundleURLTypes is an empty array: no URL scheme is registered"])
        #expect(try RuleHarness.run(URLTypesMalformed(), plist: urlTypes).isEmpty)
    }

    @Test func iosSchemeNotRegistered() throws {
        let wanted = UrlSchemes(iOS: ["COM.CONTOSO.FILES", "contoso-emm"])
        #expect(
            try RuleHarness.run(SchemeNotRegistered(), plist: urlTypes, schemes: wanted) == [
                "3:1 UrlSchemes lists iOS scheme \"contoso-emm\", which no CFBundleURLSchemes registers"
            ])
        #expect(try RuleHarness.run(SchemeNotRegistered(), plist: urlTypes, schemes: nil).isEmpty)
        // A build-setting entry might be the missing scheme: info, not a guessed error.
        let settings = urlTypes.replacingOccurrences(of: "<string>com.contoso.files</string></array>", with: "<string>com.contoso.files</string><string>$(EMM_SCHEME)</string></array>")
        #expect(try RuleHarness.run(SchemeNotRegistered(), plist: settings, schemes: wanted).first?.hasPrefix("3:1 (info) UrlSchemes lists iOS scheme \"contoso-emm\", which no literal") == true)
    }

    @Test func iosSchemeSyntax() throws {
        let bad = urlTypes.replacingOccurrences(of: "<string>com.contoso.files</string></array>", with: "<string>contoso files</string><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string></array>")
        #expect(try RuleHarness.run(SchemeSyntax(), plist: bad).count == 1)
        #expect(try RuleHarness.run(SchemeSyntax(), plist: urlTypes).isEmpty)
    }

    func queries(_ count: Int) -> String {
        "<key>LSApplicationQueriesSchemes</key><array>\n" + (0..<count).map { "<string>s\($0)</string>" }.joined(separator: "\n") + "</array>"
    }

    @Test func iosQueriesSchemesLimit() throws {
        #expect(try RuleHarness.run(QueriesSchemesLimit(), plist: queries(51)) == ["54:1 LSApplicationQueriesSchemes has 51 entries; iOS ignores those after the first 50"])
        #expect(try RuleHarness.run(QueriesSchemesLimit(), plist: queries(50)).isEmpty)
    }

    @Test func iosQueriesOfficeSchemeMissing() throws {
        let all = "<key>LSApplicationQueriesSchemes</key><array>" + OfficeApp.allCases.map { "<string>\($0.scheme)</string>" }.joined() + "</array>"
        #expect(try RuleHarness.run(QueriesOfficeSchemeMissing(), plist: all).isEmpty)
        #expect(try RuleHarness.run(QueriesOfficeSchemeMissing(), plist: "<key>A</key><string>b</string>", schemes: nil).isEmpty)
        let wordOnly = "<key>LSApplicationQueriesSchemes</key><array><string>MS-WORD-TP</string></array>"
        #expect(
            try RuleHarness.run(QueriesOfficeSchemeMissing(), plist: wordOnly) == [
                "3:1 LSApplicationQueriesSchemes lacks ms-excel-tp, ms-powerpoint-tp, ms-officemobile-tp: canOpenURL answers no for them"
            ])
    }

    @Test func iosUrlNameNotReverseDns() throws {
        let plain = urlTypes.replacingOccurrences(of: "<string>com.contoso.files</string><key>CFBundleURLSchemes", with: "<string>Contoso</string><key>CFBundleURLSchemes")
        #expect(try RuleHarness.run(URLNameNotReverseDNS(), plist: plain) == ["4:40 CFBundleURLName \"Contoso\" is not reverse-DNS"])
        #expect(try RuleHarness.run(URLNameNotReverseDNS(), plist: urlTypes).isEmpty)
    }
}
