import Foundation
import PropertyBased
import Testing

@testable import SignInProtocol
@testable import SignInProtocolCore

@Suite struct UrlSchemesTests {
    /// The `UrlSchemes` value of the docs' sample header (Microsoft's Office app-to-app docs, Microsoft's app-to-app docs), verbatim.
    static let docsHeaderValue =
        "%7B%22iOS%22%20%3A%20%5B%22contoso%22%2C%22contoso-EMM%22%5D%2C%20%22Android%22%20%3A%20%5B%22contoso%22%2C%22contoso-EMM%22%5D%2C%20%22UWP%22%3A%20%5B%22contoso%22%2C%22contoso-EMM%22%5D%7D"

    @Test func decodesTheDocsSampleHeaderValue() throws {
        let schemes = try UrlSchemes(headerValue: Self.docsHeaderValue)
        #expect(schemes.iOS == ["contoso", "contoso-EMM"])
        #expect(schemes.android == [.scheme("contoso"), .scheme("contoso-EMM")])
        #expect(schemes.uwp == ["contoso", "contoso-EMM"])
        #expect(schemes.otherPlatforms.isEmpty)
    }

    @Test func decodesAndroidTriplesAndPlainSchemesInOneList() throws {
        // The app-to-app page's flattened form: VersionCode, PackageName, AuthActivityName, repeated.
        let json = """
            {"Android": ["10", "com.contoso.app", "com.contoso.app.AuthActivity", 2300, "com.contoso.emm", \
            "com.contoso.emm.SignIn", "contoso"]}
            """
        let schemes = try UrlSchemes(json: json)
        #expect(
            schemes.android == [
                .app(AndroidAppEntry(minimumVersionCode: 10, packageName: "com.contoso.app",
                    authActivity: "com.contoso.app.AuthActivity")),
                .app(AndroidAppEntry(minimumVersionCode: 2300, packageName: "com.contoso.emm",
                    authActivity: "com.contoso.emm.SignIn")),
                .scheme("contoso"),
            ])
        #expect(schemes.iOS == nil)
        #expect(schemes.uwp == nil)
    }

    @Test func encodesKeysInDocumentedOrderThenUnknownOnesAsReceived() throws {
        let schemes = try UrlSchemes(json: #"{"Zeta":["z"],"UWP":["u"],"Alpha":[],"iOS":["i"],"Android":["a"]}"#)
        #expect(schemes.otherPlatforms.map(\.name) == ["Zeta", "Alpha"])
        #expect(schemes.json == #"{"iOS":["i"],"Android":["a"],"UWP":["u"],"Zeta":["z"],"Alpha":[]}"#)
    }

    @Test func headerFormEncodesEveryReservedByte() {
        let schemes = UrlSchemes(
            iOS: ["contoso", "contoso-EMM"],
            android: [.app(AndroidAppEntry(minimumVersionCode: 7, packageName: "com.c", authActivity: "com.c.A"))])
        #expect(schemes.json == #"{"iOS":["contoso","contoso-EMM"],"Android":["7","com.c","com.c.A"]}"#)
        #expect(
            schemes.headerValue
                == "%7B%22iOS%22%3A%5B%22contoso%22%2C%22contoso-EMM%22%5D%2C%22Android%22%3A%5B%227%22%2C%22com.c%22%2C%22com.c.A%22%5D%7D"
        )
    }

    @Test func escapesJSONStringsAndReadsTheEscapesBack() throws {
        let schemes = UrlSchemes(iOS: ["a\"b\\c\n\u{01}é😀"])
        #expect(schemes.json == #"{"iOS":["a\"b\\c\n\u0001é😀"]}"#)
        #expect(try UrlSchemes(json: schemes.json) == schemes)
        #expect(try UrlSchemes(json: #"{"iOS":["\u00e9\ud83d\ude00\/"]}"#).iOS == ["é😀/"])
    }

    @Test func codableUsesTheSameKeysAndRules() throws {
        let schemes = UrlSchemes(
            iOS: ["contoso"],
            android: [.app(AndroidAppEntry(minimumVersionCode: 3, packageName: "p", authActivity: "a")), .scheme("s")],
            uwp: [])
        let data = try JSONEncoder().encode(schemes)
        #expect(try JSONDecoder().decode(UrlSchemes.self, from: data) == schemes)
        let withNumber = Data(#"{"Android":[12,"p","a"]}"#.utf8)
        #expect(
            try JSONDecoder().decode(UrlSchemes.self, from: withNumber).android
                == [.app(AndroidAppEntry(minimumVersionCode: 12, packageName: "p", authActivity: "a"))])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(UrlSchemes.self, from: Data(#"{"Android":["12","p"]}"#.utf8))
        }
    }

    // MARK: Round trips

    @Test func roundTripsThroughJSONAndHeaderForm() async throws {
        let strings = ProtocolGen.text.array(of: 0...4)
        let androidEntries = zip(Gen<Int>.int(in: 0...Int.max), ProtocolGen.nonEmptyText, ProtocolGen.nonEmptyText,
            ProtocolGen.schemeName, Gen.bool)
            .map { code, package, activity, scheme, isApp -> UrlSchemes.AndroidEntry in
                isApp ? .app(AndroidAppEntry(minimumVersionCode: code, packageName: package, authActivity: activity))
                    : .scheme(scheme)
            }
            .array(of: 0...4)
        let others = zip(ProtocolGen.text, strings).map { UrlSchemes.OtherPlatform(name: "x" + $0, entries: $1) }
            .array(of: 0...2)
        await propertyCheck(input: strings.optional, androidEntries.optional, strings.optional, others) {
            iOS, android, uwp, others in
            // Unknown names must differ from the known keys and from each other, as decoding requires.
            var unique = [UrlSchemes.OtherPlatform]()
            for other in others where !unique.contains(where: { $0.name == other.name }) { unique.append(other) }
            let schemes = UrlSchemes(iOS: iOS, android: android, uwp: uwp, otherPlatforms: unique)
            do {
                #expect(try UrlSchemes(json: schemes.json) == schemes)
                #expect(try UrlSchemes(headerValue: schemes.headerValue) == schemes)
            } catch { Issue.record(error) }
            #expect(schemes.headerValue.utf8.allSatisfy { PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "%") })
        }
    }

    // MARK: Errors

    @Test func refusesInputOverTheLimit() {
        let json = #"{"iOS":["\#(String(repeating: "a", count: 100))"]}"#
        #expect(throws: UrlSchemesError.tooLarge(InputTooLarge(what: "UrlSchemes JSON", limit: 64, actual: 112))) {
            try UrlSchemes(json: json, limit: InputLimit(maxBytes: 64))
        }
        #expect(throws: UrlSchemesError.self) {
            try UrlSchemes(headerValue: String(repeating: "%20", count: 3000))
        }
    }

    @Test func namesTheBadPercentEscape() {
        #expect(throws: UrlSchemesError.badPercentEncoding(.invalidEscape(offset: 3))) {
            try UrlSchemes(headerValue: "%7B%Z")
        }
    }

    @Test func pointsAtTheByteWhereJSONBreaks() {
        #expect(throws: UrlSchemesError.malformedJSON(offset: 12, expected: "',' or ']'")) {
            try UrlSchemes(json: #"{"iOS":["a" "b"]}"#)
        }
        #expect(throws: UrlSchemesError.malformedJSON(offset: 13, expected: "end of input")) {
            try UrlSchemes(json: #"{"iOS":["a"]}x"#)
        }
        #expect(throws: UrlSchemesError.malformedJSON(offset: 10, expected: "no control character in a string")) {
            try UrlSchemes(json: "{\"iOS\":[\"a\u{01}\"]}")
        }
    }

    @Test func refusesShapesOtherThanAnObjectOfLists() {
        #expect(throws: UrlSchemesError.notAnObject) { try UrlSchemes(json: #"["contoso"]"#) }
        #expect(throws: UrlSchemesError.notAList(platform: "iOS")) { try UrlSchemes(json: #"{"iOS":"contoso"}"#) }
        #expect(throws: UrlSchemesError.notAString(platform: "UWP", index: 1)) {
            try UrlSchemes(json: #"{"UWP":["a",1]}"#)
        }
        #expect(throws: UrlSchemesError.notAString(platform: "Android", index: 0)) {
            try UrlSchemes(json: #"{"Android":[null]}"#)
        }
    }

    @Test func refusesADuplicatePlatform() {
        #expect(throws: UrlSchemesError.duplicatePlatform("iOS")) {
            try UrlSchemes(json: #"{"iOS":["a"],"iOS":["b"]}"#)
        }
    }

    @Test func refusesAnIncompleteAndroidTriple() {
        #expect(throws: UrlSchemesError.incompleteAndroidApp(index: 1)) {
            try UrlSchemes(json: #"{"Android":["contoso","10","com.contoso"]}"#)
        }
        #expect(throws: UrlSchemesError.incompleteAndroidApp(index: 0)) {
            try UrlSchemes(json: #"{"Android":["10","","com.contoso.Auth"]}"#)
        }
    }

    @Test func refusesAVersionCodeThatDoesNotFit() {
        #expect(throws: UrlSchemesError.badVersionCode(index: 0, "99999999999999999999")) {
            try UrlSchemes(json: #"{"Android":["99999999999999999999","p","a"]}"#)
        }
    }

    @Test func refusesHostileNesting() {
        let deep = #"{"x":["# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "]}"
        #expect(throws: UrlSchemesError.self) { try UrlSchemes(json: deep) }
    }
}
