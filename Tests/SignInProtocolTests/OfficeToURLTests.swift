import PropertyBased
import Testing

@testable import SignInProtocol
@testable import SignInProtocolCore

@Suite struct OfficeToURLTests {
    /// Microsoft's app-to-app docs, "Office iOS invoking your app ("To" URL)", verbatim.
    static let docsToURL =
        "Contoso:client_id=abcdefg&response_type=code&scope=wopi&rs=enUS&build=16.1.1234&platform=iOS&app=word&action=76d173ad-a43f-4e3c-a5e7-0e7276b4c624"

    @Test func decodesTheDocsToURLAndReencodesTheSameBytes() throws {
        let to = try OfficeToURL(url: Self.docsToURL)
        #expect(to.scheme == "Contoso")
        #expect(to.query.clientID == "abcdefg")
        #expect(to.query.responseType == "code")
        #expect(to.query.scope == "wopi")
        #expect(to.query.culture == "enUS")
        #expect(to.query.cultureTag == "en-US")
        #expect(to.query.build == "16.1.1234")
        #expect(to.query.platform == "iOS")
        #expect(to.query.officeApp == .word)
        #expect(to.query.redirectURI == nil && to.query.state == nil)
        #expect(to.action == "76d173ad-a43f-4e3c-a5e7-0e7276b4c624")
        #expect(to.url == Self.docsToURL)
    }

    @Test func toleratesCaseVariantsSlashesAndCultureForms() throws {
        let to = try OfficeToURL(
            url: "contoso://?client_id=abc&redirect_uri=https%3A%2F%2Flocalhost&response_type=code&scope=&rs=en-US&Build=16.1&Platform=android&state=s1&extra=1&app=excel&action=a")
        #expect(to.query.build == "16.1")
        #expect(to.query.platform == "android")
        #expect(to.query.cultureTag == "en-US")
        #expect(to.query.scope == "")
        #expect(to.query.redirectURI == "https://localhost")
        #expect(to.query.otherParameters == FormParameters(["extra": "1"]))
        // The documented form: no `//`, lower-case names, defined parameters in order, unknown ones kept.
        #expect(
            to.url
                == "contoso:client_id=abc&redirect_uri=https%3A%2F%2Flocalhost&response_type=code&scope=&state=s1&rs=en-US&build=16.1&platform=android&extra=1&app=excel&action=a"
        )
        #expect(try OfficeToURL(url: "contoso://client_id=abc&response_type=code&app=word&action=a").scheme == "contoso")
    }

    @Test func keepsALiteralPlusAsData() throws {
        // `+` is not a space in these RFC 3986 URLs (see OfficeURLParts.decodeQuery).
        let to = try OfficeToURL(url: "c:client_id=a+b&response_type=code&app=word&action=x+y%2Bz%20w")
        #expect(to.query.clientID == "a+b")
        #expect(to.action == "x+y+z w")
    }

    @Test func actionSurvivesByteForByte() throws {
        let action = "a&b=c%d+e f/é😀?#\"\\"
        let to = OfficeToURL(scheme: "contoso", query: OfficeAuthorizeQuery(clientID: "c", app: "word"), action: action)
        #expect(to.url.hasSuffix("&action=a%26b%3Dc%25d%2Be%20f%2F%C3%A9%F0%9F%98%80%3F%23%22%5C"))
        #expect(try OfficeToURL(url: to.url).action == action)
        #expect(to.backURL(.success(.init(code: "k")))?.url.hasSuffix("&action=" + PercentEncoding.encode(action)) == true)
    }

    @Test func roundTrips() async throws {
        let optionalText = ProtocolGen.text.optional
        await propertyCheck(
            input: ProtocolGen.nonEmptyText, optionalText, optionalText, optionalText, ProtocolGen.nonEmptyText,
            ProtocolGen.text
        ) { clientID, scope, culture, state, app, action in
            let to = OfficeToURL(
                scheme: "Contoso",
                query: OfficeAuthorizeQuery(
                    clientID: clientID, scope: scope, state: state, culture: culture, build: "16.1", platform: "iOS",
                    app: app),
                action: action)
            do {
                #expect(try OfficeToURL(url: to.url) == to)
            } catch { Issue.record(error) }
        }
    }

    // MARK: Errors

    @Test func refusesAURLWithoutScheme() {
        #expect(throws: OfficeURLError.badScheme("client_id=abc&response_type=code")) {
            try OfficeToURL(url: "client_id=abc&response_type=code")
        }
        #expect(throws: OfficeURLError.badScheme("1contoso")) { try OfficeToURL(url: "1contoso:client_id=a") }
    }

    @Test func refusesMissingRequiredParameters() {
        #expect(throws: OfficeURLError.missingParameter("action")) {
            try OfficeToURL(url: "c:client_id=a&response_type=code&app=word")
        }
        #expect(throws: OfficeURLError.missingParameter("app")) {
            try OfficeToURL(url: "c:client_id=a&response_type=code&action=x")
        }
        #expect(throws: OfficeURLError.missingParameter("client_id")) {
            try OfficeToURL(url: "c:response_type=code&app=word&action=x")
        }
        #expect(throws: OfficeURLError.missingParameter("response_type")) {
            try OfficeToURL(url: "c:client_id=a&app=word&action=x")
        }
        #expect(throws: OfficeURLError.emptyParameter("client_id")) {
            try OfficeToURL(url: "c:client_id=&response_type=code&app=word&action=x")
        }
    }

    @Test func refusesADuplicateWhateverItsCase() {
        #expect(throws: OfficeURLError.duplicateParameter("build")) {
            try OfficeToURL(url: "c:client_id=a&response_type=code&build=1&Build=2&app=word&action=x")
        }
    }

    @Test func refusesABadEscapeWithItsOffsetInTheWholeURL() {
        #expect(throws: OfficeURLError.badEncoding(.badEncoding(parameter: "client_id", .invalidEscape(offset: 12)))) {
            try OfficeToURL(url: "c:client_id=%zz&response_type=code&app=word&action=x")
        }
    }

    @Test func refusesInputOverTheLimit() {
        let url = "c:client_id=a&action=" + String(repeating: "x", count: 100)
        #expect(throws: OfficeURLError.tooLarge(InputTooLarge(what: "To URL", limit: 64, actual: 121))) {
            try OfficeToURL(url: url, limit: InputLimit(maxBytes: 64))
        }
    }
}
