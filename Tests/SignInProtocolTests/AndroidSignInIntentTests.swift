import PropertyBased
import Testing

@testable import SignInProtocol
@testable import SignInProtocolCore

@Suite struct AndroidSignInIntentTests {
    /// Microsoft's app-to-app docs, "Client-side Changes", verbatim.
    static let docsAuthorizeQuery =
        "client_id=abcdefg&response_type=code&scope=wopi&rs=enUS&build=16.1.1234&platform=android&app=word"
    static let docsSuccess = "code=abcdefg&tk=http://contoso.com&sc=xyz"
    static let docsFailure = #"error=invalid_request&error_description="optional human readable message""#

    @Test func readsTheDocsRequestExtras() throws {
        let request = try AndroidSignInIntent.Request(
            extras: ["AuthorizeUrlQueryParams": Self.docsAuthorizeQuery, "UserId": "user@contoso.com"])
        #expect(request.query.clientID == "abcdefg")
        #expect(request.query.platform == "android")
        #expect(request.query.officeApp == .word)
        #expect(request.userId == "user@contoso.com")
        #expect(request.extras == ["AuthorizeUrlQueryParams": Self.docsAuthorizeQuery, "UserId": "user@contoso.com"])
    }

    @Test func theRequestIsTheToURLWithoutAction() throws {
        let to = try OfficeToURL(url: OfficeToURLTests.docsToURL)
        let extras = AndroidSignInIntent.Request(query: to.query).extras
        #expect(extras["AuthorizeUrlQueryParams"]?.contains("action") == false)
        #expect(extras["UserId"] == nil)
        #expect(try AndroidSignInIntent.Request(extras: extras).query == to.query)
    }

    @Test func readsTheDocsSuccessWithOK() throws {
        let response = try AndroidSignInIntent.Response(
            extras: ["ResponseUrlQueryParams": Self.docsSuccess, "UserId": "u1"], resultCode: -1)
        #expect(response.resultCode == .ok)
        #expect(response.result == .success(.init(code: "abcdefg", tokenEndpoint: "http://contoso.com", sessionContext: "xyz")))
        #expect(response.userId == "u1")
    }

    @Test func readsTheDocsFailureWithCanceledOrAnyOtherCode() throws {
        for code in [0, 1, 42] {
            let response = try AndroidSignInIntent.Response(extras: ["ResponseUrlQueryParams": Self.docsFailure], resultCode: code)
            #expect(
                response.result
                    == .failure(.init(error: "invalid_request", errorDescription: #""optional human readable message""#)))
            #expect(response.resultCode == (code == 0 ? .canceled : .other(code)))
        }
    }

    @Test func readsTheMisspelledKeyAndWritesEitherOnRequest() throws {
        let response = try AndroidSignInIntent.Response(
            extras: ["ResonponseUrlQueryParams": Self.docsSuccess, "UserId": "u1"], resultCode: -1)
        #expect(response.result?.isSuccess == true)
        #expect(response.extras().keys.sorted() == ["ResponseUrlQueryParams", "UserId"])
        #expect(response.extras(misspelledKey: true).keys.sorted() == ["ResonponseUrlQueryParams", "UserId"])
        #expect(response.extras()["ResponseUrlQueryParams"] == "code=abcdefg&tk=http%3A%2F%2Fcontoso.com&sc=xyz")
    }

    @Test func roundTripsThroughExtrasAndResultCode() throws {
        for result in [
            OfficeSignInResult.success(.init(code: "a&b", tokenEndpoint: "https://t.example/?x=1", sessionContext: "s c")),
            .failure(.init(error: "access_denied", errorDescription: "n+o", errorURI: nil)),
        ] {
            let response = AndroidSignInIntent.Response(result: result, userId: "é")
            let decoded = try AndroidSignInIntent.Response(
                extras: response.extras(), resultCode: response.resultCode.value)
            #expect(decoded == response)
        }
    }

    @Test func acceptsABackButtonCancelWithoutExtras() throws {
        let response = try AndroidSignInIntent.Response(extras: [:], resultCode: 0)
        #expect(response.result == nil)
        #expect(response.resultCode == .canceled)
    }

    @Test func reportsAUserIdMismatch() throws {
        let request = AndroidSignInIntent.Request(query: OfficeAuthorizeQuery(clientID: "c"), userId: "alice")
        let same = AndroidSignInIntent.Response(result: .success(.init(code: "c")), userId: "alice")
        let other = AndroidSignInIntent.Response(result: .success(.init(code: "c")), userId: "bob")
        let none = AndroidSignInIntent.Response(result: .success(.init(code: "c")), userId: nil)
        #expect(same.userIdMismatch(with: request) == nil)
        #expect(other.userIdMismatch(with: request) == .init(requested: "alice", returned: "bob"))
        #expect(none.userIdMismatch(with: request) == .init(requested: "alice", returned: nil))
        #expect(other.userIdMismatch(with: .init(query: request.query)) == nil)
    }

    // MARK: Errors

    @Test func refusesMissingAuthorizeExtra() {
        #expect(throws: AndroidSignInIntentError.missingExtra("AuthorizeUrlQueryParams")) {
            try AndroidSignInIntent.Request(extras: ["UserId": "u"])
        }
    }

    @Test func namesTheExtraThatDoesNotDecode() {
        #expect(throws: AndroidSignInIntentError.badExtra("AuthorizeUrlQueryParams", .missingParameter("client_id"))) {
            try AndroidSignInIntent.Request(extras: ["AuthorizeUrlQueryParams": "response_type=code"])
        }
        #expect(throws: AndroidSignInIntentError.badExtra("ResonponseUrlQueryParams", .missingCodeAndError)) {
            try AndroidSignInIntent.Response(extras: ["ResonponseUrlQueryParams": "sc=1"], resultCode: -1)
        }
    }

    @Test func refusesAResultCodeThatContradictsThePayload() {
        #expect(throws: AndroidSignInIntentError.resultCodeMismatch(resultCode: 0, hasCode: true)) {
            try AndroidSignInIntent.Response(extras: ["ResponseUrlQueryParams": Self.docsSuccess], resultCode: 0)
        }
        #expect(throws: AndroidSignInIntentError.resultCodeMismatch(resultCode: -1, hasCode: false)) {
            try AndroidSignInIntent.Response(extras: ["ResponseUrlQueryParams": Self.docsFailure], resultCode: -1)
        }
        #expect(throws: AndroidSignInIntentError.resultCodeMismatch(resultCode: -1, hasCode: false)) {
            try AndroidSignInIntent.Response(extras: [:], resultCode: -1)
        }
    }
}

@Suite struct AndroidSignInIntentPropertyTests {
    @Test func requestsRoundTripThroughExtras() async {
        await propertyCheck(input: ProtocolGen.nonEmptyText, ProtocolGen.text.optional, ProtocolGen.text.optional) {
            clientID, app, userId in
            let request = AndroidSignInIntent.Request(
                query: OfficeAuthorizeQuery(clientID: clientID, scope: "wopi", platform: "android", app: app),
                userId: userId)
            do {
                #expect(try AndroidSignInIntent.Request(extras: request.extras) == request)
            } catch { Issue.record(error) }
        }
    }

    @Test func responsesRoundTripThroughExtrasAndResultCode() async {
        await propertyCheck(
            input: ProtocolGen.nonEmptyText, ProtocolGen.text.optional, ProtocolGen.text.optional, Gen.bool, Gen.bool
        ) { value, optional, userId, success, misspelled in
            let result: OfficeSignInResult =
                success
                ? .success(.init(code: value, tokenEndpoint: optional, sessionContext: optional))
                : .failure(.init(error: value, errorDescription: optional))
            let response = AndroidSignInIntent.Response(result: result, userId: userId)
            do {
                let decoded = try AndroidSignInIntent.Response(
                    extras: response.extras(misspelledKey: misspelled), resultCode: response.resultCode.value)
                #expect(decoded == response)
            } catch { Issue.record(error) }
        }
    }
}
