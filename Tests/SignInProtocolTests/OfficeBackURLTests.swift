import PropertyBased
import Testing

@testable import SignInProtocol
@testable import SignInProtocolCore

@Suite struct OfficeBackURLTests {
    /// Microsoft's app-to-app docs, "Your app invoking Office iOS ("Back" URL)", verbatim.
    static let docsBackURL =
        "ms-word-tp:code=abcdefg&tk=https%3A%2F%2Fcontoso.com%2Fapi%2Ftoken%2F%3Fextra%3Dstuff&sc=xyz&action=76d173ad-a43f-4e3c-a5e7-0e7276b4c624"

    @Test func decodesTheDocsBackURLAndReencodesTheSameBytes() throws {
        let back = try OfficeBackURL(url: Self.docsBackURL)
        #expect(back.app == .word)
        #expect(
            back.result
                == .success(.init(code: "abcdefg", tokenEndpoint: "https://contoso.com/api/token/?extra=stuff",
                    sessionContext: "xyz")))
        #expect(back.action == "76d173ad-a43f-4e3c-a5e7-0e7276b4c624")
        #expect(back.url == Self.docsBackURL)
    }

    @Test func answersTheDocsToURL() throws {
        let to = try OfficeToURL(url: OfficeToURLTests.docsToURL)
        let back = to.backURL(
            .success(.init(code: "abcdefg", tokenEndpoint: "https://contoso.com/api/token/?extra=stuff", sessionContext: "xyz")))
        #expect(back?.url == Self.docsBackURL)
    }

    @Test func encodesTheFailureForm() throws {
        let back = OfficeBackURL(
            app: .excel,
            result: .failure(.init(error: "access_denied", errorDescription: "User said no", errorURI: "https://c.example/e")),
            action: "42")
        #expect(
            back.url
                == "ms-excel-tp:error=access_denied&error_description=User%20said%20no&error_uri=https%3A%2F%2Fc.example%2Fe&action=42"
        )
        #expect(try OfficeBackURL(url: back.url) == back)
    }

    @Test func toleratesSchemeCaseAndSlashesAndKeepsOtherParameters() throws {
        let back = try OfficeBackURL(url: "MS-PowerPoint-TP://state=s&code=c&action=a+b")
        #expect(back.app == .powerpoint)
        #expect(back.otherParameters == FormParameters(["state": "s"]))
        #expect(back.action == "a+b")
        #expect(back.url == "ms-powerpoint-tp:code=c&state=s&action=a%2Bb")
    }

    @Test func roundTrips() async throws {
        let optionalText = ProtocolGen.text.optional
        await propertyCheck(
            input: Gen<OfficeApp>.case, ProtocolGen.nonEmptyText, optionalText, optionalText, ProtocolGen.text, Gen.bool
        ) { app, value, optionalA, optionalB, action, success in
            let result: OfficeSignInResult =
                success
                ? .success(.init(code: value, tokenEndpoint: optionalA, sessionContext: optionalB))
                : .failure(.init(error: value, errorDescription: optionalA, errorURI: optionalB))
            let back = OfficeBackURL(app: app, result: result, action: action)
            do {
                #expect(try OfficeBackURL(url: back.url) == back)
            } catch { Issue.record(error) }
        }
    }

    // MARK: Errors

    @Test func refusesASchemeThatIsNotOffice() {
        #expect(throws: OfficeURLError.unknownOfficeScheme("contoso")) {
            try OfficeBackURL(url: "contoso:code=a&action=b")
        }
    }

    @Test func refusesAMissingScheme() {
        #expect(throws: OfficeURLError.badScheme("code=a&action=b")) { try OfficeBackURL(url: "code=a&action=b") }
    }

    @Test func needsCodeOrErrorButNotBoth() {
        #expect(throws: OfficeURLError.missingCodeAndError) { try OfficeBackURL(url: "ms-word-tp:tk=x&action=b") }
        #expect(throws: OfficeURLError.bothCodeAndError) {
            try OfficeBackURL(url: "ms-word-tp:code=a&error=access_denied&action=b")
        }
        #expect(throws: OfficeURLError.emptyParameter("code")) { try OfficeBackURL(url: "ms-word-tp:code=&action=b") }
        #expect(throws: OfficeURLError.emptyParameter("error")) { try OfficeBackURL(url: "ms-word-tp:error=&action=b") }
    }

    @Test func needsAction() {
        #expect(throws: OfficeURLError.missingParameter("action")) { try OfficeBackURL(url: "ms-word-tp:code=a") }
    }

    @Test func refusesDuplicates() {
        #expect(throws: OfficeURLError.duplicateParameter("action")) {
            try OfficeBackURL(url: "ms-word-tp:code=a&action=b&ACTION=c")
        }
        #expect(throws: OfficeURLError.duplicateParameter("code")) {
            try OfficeBackURL(url: "ms-word-tp:code=a&code=b&action=c")
        }
    }

    @Test func refusesABadEscape() {
        #expect(throws: OfficeURLError.badEncoding(.badEncoding(parameter: "tk", .invalidEscape(offset: 21)))) {
            try OfficeBackURL(url: "ms-word-tp:code=a&tk=%G0&action=b")
        }
    }

    /// Found by fuzzing (office-back-url): characters a URL must escape, sent raw, are accepted, and the encoded
    /// form escapes each (a U+FFFD replacing an invalid byte becomes nine bytes), so re-encoding can cross the limit
    /// that the original was under. The re-encoded URL then gets the typed size error, and decodes to the same value
    /// under a limit that fits it.
    @Test func aRawURLCanGrowPastTheLimitWhenEncodedAndStillRoundTrips() throws {
        let raw = "ms-excel-tp:error=server_error&state=" + String(repeating: "\u{FFFD}", count: 1000) + "&action=42"
        let url = try OfficeBackURL(url: raw)
        let encoded = url.url
        #expect(raw.utf8.count < InputLimit.default.maxBytes && encoded.utf8.count > InputLimit.default.maxBytes)
        #expect(throws: OfficeURLError.tooLarge(InputTooLarge(what: "Back URL", limit: 8192, actual: encoded.utf8.count))) {
            try OfficeBackURL(url: encoded)
        }
        #expect(try OfficeBackURL(url: encoded, limit: InputLimit(maxBytes: encoded.utf8.count)) == url)
    }

    @Test func refusesInputOverTheLimit() {
        #expect(throws: OfficeURLError.tooLarge(InputTooLarge(what: "Back URL", limit: 16, actual: 26))) {
            try OfficeBackURL(url: "ms-word-tp:code=a&action=b", limit: InputLimit(maxBytes: 16))
        }
    }
}
