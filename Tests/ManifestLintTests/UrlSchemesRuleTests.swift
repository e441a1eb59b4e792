import SignInProtocolCore
import Testing

@testable import ManifestLint

/// One test per url_schemes.json rule, named after its id, plus the positioned JSON reader.
@Suite struct UrlSchemesRuleTests {
    /// The Office docs' bootstrapper sample header, percent-decoded (Microsoft's app-to-app docs): valid, so every rule is silent.
    static let officeDocsJSON = #"{"iOS" : ["contoso","contoso-EMM"], "Android" : ["contoso","contoso-EMM"], "UWP": ["contoso","contoso-EMM"]}"#

    @Test func officeDocsSampleIsClean() throws {
        for rule in RuleCatalog.urlSchemes {
            let document = UrlSchemesDocument(root: try PositionedJSONReader.parse(Array(Self.officeDocsJSON.utf8)), text: Self.officeDocsJSON)
            #expect(rule.check(document, context: LintContext()).isEmpty)
        }
    }

    @Test func urlSchemesSchema() throws {
        #expect(try RuleHarness.run(UrlSchemesSchema(), json: "[]") == ["1:1 the top level is a array, not an object"])
        #expect(try RuleHarness.run(UrlSchemesSchema(), json: "{}") == ["1:1 the object names no platform; omit UrlSchemes instead"])
        #expect(
            try RuleHarness.run(UrlSchemesSchema(), json: "{\"iOS\": \"contoso\"}") == ["1:9 \"iOS\" is a string, not a list"])
        #expect(
            try RuleHarness.run(UrlSchemesSchema(), json: "{\"UWP\": [\"ok\", \"no way\", null]}") == [
                "1:16 \"UWP\"[1] \"no way\" is not a URL scheme (RFC 3986 §3.1)", "1:26 \"UWP\"[2] is a null, not a string",
            ])
        #expect(try RuleHarness.run(UrlSchemesSchema(), json: "{\"Android\": [1200, \"com.c\", \"com.c.A\"]}").isEmpty)
    }

    @Test func urlSchemesUnknownPlatform() throws {
        #expect(
            try RuleHarness.run(UnknownPlatform(), json: "{\n \"android\": [\"x\"], \"Windows\": [\"y\"]}") == [
                "2:2 unknown platform \"android\"; did you mean \"Android\"?", "2:20 unknown platform \"Windows\"",
            ])
        #expect(try RuleHarness.run(UnknownPlatform(), json: Self.officeDocsJSON).isEmpty)
    }

    @Test func urlSchemesAndroidIncomplete() throws {
        #expect(
            try RuleHarness.run(AndroidEntryIncomplete(), json: "{\"Android\": [\"1\", \"com.a\", \"com.a.A\", \"2\", \"com.b\"]}") == [
                "1:39 \"Android\"[3] starts a VersionCode, PackageName, AuthActivityName triple that is incomplete"
            ])
        #expect(
            try RuleHarness.run(AndroidEntryIncomplete(), json: "{\"Android\": [\"99999999999999999999\", \"com.a\", \"A\"]}").count == 1)
        #expect(try RuleHarness.run(AndroidEntryIncomplete(), json: "{\"Android\": [\"1\", \"com.a\", \"com.a.A\", \"scheme\"]}").isEmpty)
    }

    @Test func urlSchemesDuplicate() throws {
        #expect(
            try RuleHarness.run(DuplicateEntry(), json: "{\"iOS\": [\"a\", \"A\"],\n\"iOS\": [\"b\"]}") == [
                "1:15 \"iOS\" lists scheme \"A\" again (first at index 0)", "2:1 (error) platform \"iOS\" is given twice (first on line 1)",
            ])
        #expect(try RuleHarness.run(DuplicateEntry(), json: "{\"Android\": [\"1\", \"com.a\", \"A\", \"1\", \"com.b\", \"A\"]}").isEmpty)
    }

    @Test func readerReportsWhereJSONBreaks() {
        let cases: [(String, String)] = [
            ("{\"a\": [1,]}", "1:10: expected a value, found ']'"),
            ("{\"a\": 01}", "1:8: numbers must not have leading zeros"),
            ("{\n  \"é\": \"\\x\"}", "2:10: invalid escape \\'x'"),
            ("{\"a\": \"\\ud800\"}", "1:14: unpaired UTF-16 surrogate"),
            ("{} x", "1:4: unexpected text after the JSON value"),
            ("\"open", "1:6: the string is not closed"),
            (String(repeating: "[", count: 40), "1:33: JSON nests deeper than 32 levels"),
        ]
        for (text, expected) in cases {
            do throws(JSONSyntaxError) {
                _ = try PositionedJSONReader.parse(Array(text.utf8))
                Issue.record("\(text) parsed")
            } catch {
                #expect(error.description == expected)
            }
        }
        #expect(throws: Never.self) {
            let node = try PositionedJSONReader.parse(Array("{\"k\": [\"\\ud83d\\ude00\", -1.5e3, true, null]}".utf8))
            guard case .object(let members) = node.value, case .array(let items) = members[0].value.value else {
                Issue.record("not an object of arrays")
                return
            }
            #expect(items.map(\.value) == [.string("😀"), .number("-1.5e3"), .boolean(true), .null])
        }
    }
}
