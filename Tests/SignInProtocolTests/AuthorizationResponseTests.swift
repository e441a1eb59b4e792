import PropertyBased
import Testing
@testable import SignInProtocol
@testable import SignInProtocolCore

@Suite struct AuthorizationResponseTests {
    // Seed 004, "Host's redirect URL that ends the OAuth flow", verbatim.
    static let officeRedirect = "https://localhost?state=&code=abcdefg&tk=https%3A%2F%2Fcontoso.com%2Fapi%2Ftoken%2F%3Fextra%3Dstuff"
    // Seed 000, "Example success callback from browser (step 6)", verbatim.
    static let vippsRedirects = [
        "https://example.com/redirect-uri?state=218gz18yveu1ybajwh2g1h3g&code=<code>&scope=openid",
        "merchantapp://redirect-uri?state=218gz18yveu1ybajwh2g1h3g&code=<code>&scope=openid",
    ]

    @Test func officeRedirectWithTk() throws {
        let response = try AuthorizationResponse.decode(redirectURL: Self.officeRedirect)
        #expect(response.code == "abcdefg")
        #expect(response.state == nil)  // `state=` is as if omitted (RFC 6749 §3.1)
        guard case .success(let success) = response.outcome else { Issue.record("not a success"); return }
        #expect(success.tokenEndpoint == "https://contoso.com/api/token/?extra=stuff")
        #expect(success.sessionContext == nil)
        #expect(response.redirectURL(to: "https://localhost") == "https://localhost?code=abcdefg&tk=https%3A%2F%2Fcontoso.com%2Fapi%2Ftoken%2F%3Fextra%3Dstuff")
    }

    @Test(arguments: vippsRedirects)
    func vippsBrowserRedirects(url: String) throws {
        let response = try AuthorizationResponse.decode(redirectURL: url)
        #expect(response == .success(code: "<code>", state: "218gz18yveu1ybajwh2g1h3g", scope: "openid"))
    }

    @Test func errorFormAndExistingQuery() throws {
        let response = AuthorizationResponse.failure(OAuthError(.accessDenied, description: "no thanks"), state: "xyz")
        let url = response.redirectURL(to: "https://client.example.com/cb?tenant=a")
        #expect(url == "https://client.example.com/cb?tenant=a&error=access_denied&error_description=no%20thanks&state=xyz")
        let parsed = try AuthorizationResponse.decode(redirectURL: url)
        #expect(parsed.error == OAuthError(.accessDenied, description: "no thanks"))
        #expect(parsed.state == "xyz")
        #expect(parsed.additionalParameters == FormParameters([.init("tenant", "a")]))
    }

    @Test func appendsCorrectlyToEveryShapeOfRedirectURI() {
        let response = AuthorizationResponse.success(code: "c", state: "s")
        #expect(response.redirectURL(to: "com.example.app:/cb") == "com.example.app:/cb?state=s&code=c")
        #expect(response.redirectURL(to: "https://a.example/cb?") == "https://a.example/cb?state=s&code=c")
        #expect(response.redirectURL(to: "https://a.example/cb?x=1&") == "https://a.example/cb?x=1&state=s&code=c")
        #expect(response.redirectURL(to: "http://127.0.0.1:5000") == "http://127.0.0.1:5000?state=s&code=c")
    }

    @Test func refusesBrokenResponses() {
        #expect(throws: OAuthDecodingError.missingParameter("code")) { try AuthorizationResponse.decode(redirectURL: "https://localhost") }
        #expect(throws: OAuthDecodingError.missingParameter("code")) { try AuthorizationResponse.decode(query: "state=x&code=") }
        #expect(throws: OAuthDecodingError.duplicateParameter("code")) { try AuthorizationResponse.decode(query: "code=a&code=b") }
        #expect(throws: OAuthDecodingError.duplicateParameter("tk")) { try AuthorizationResponse.decode(query: "code=a&tk=x&tk=y") }
        #expect(throws: OAuthDecodingError.invalidParameter("code", reason: "a response carries either code or error, not both")) {
            try AuthorizationResponse.decode(query: "code=a&error=access_denied")
        }
        #expect(throws: OAuthDecodingError.badEncoding(parameter: "tk", .invalidEscape(offset: 33))) {
            try AuthorizationResponse.decode(redirectURL: "https://localhost?code=a&tk=https%3")
        }
        #expect(throws: OAuthDecodingError.tooLarge(InputTooLarge(what: "redirect URL", limit: 10, actual: 19))) {
            try AuthorizationResponse.decode(redirectURL: "https://x?code=abcd", limit: InputLimit(maxBytes: 10))
        }
    }

    static var generator: Generator<AuthorizationResponse, some SendableSequenceType> {
        zip(OAuthGen.text, OAuthGen.optionals(5), Gen<Bool>.bool, OAuthGen.extraParameters(avoiding: []))
            .map { text, o, isError, extra in
                let outcome: AuthorizationResponse.Outcome = isError
                    // The description as it can be written (RFC 6749 §4.1.2.1's charset: `OAuthError.wireSafe`).
                    ? .failure(OAuthError(.other("e_" + String(text.unicodeScalars.filter { $0.isASCII && $0.value >= 0x23 && $0 != "\\" })), description: o[0].map(OAuthError.wireSafe), uri: o[1]))
                    : .success(.init(code: text, scope: o[0], tokenEndpoint: o[1], sessionContext: o[2]))
                return AuthorizationResponse(outcome, state: o[3], additionalParameters: extra)
            }
    }

    /// RFC 9207 §2: `iss` on success and error responses, last, once; read back as `issuer`.
    @Test func issuedByAddsTheIssuerToSuccessAndErrorResponses() throws {
        let success = AuthorizationResponse.success(code: "c1", state: "s1").issued(by: "https://contoso.com")
        #expect(success.redirectURL(to: "https://localhost") == "https://localhost?state=s1&code=c1&iss=https%3A%2F%2Fcontoso.com")
        let failure = AuthorizationResponse.failure(.invalidRequest("x"), state: "s1").issued(by: "https://a.example")
            .issued(by: "https://contoso.com")
        let decoded = try AuthorizationResponse.decode(redirectURL: failure.redirectURL(to: "com.example.app:/cb"))
        #expect(decoded.issuer == "https://contoso.com" && decoded.error?.code == .invalidRequest)
        #expect(failure.parameters.values(for: "iss") == ["https://contoso.com"])
        #expect(AuthorizationResponse.success(code: "c1").issuer == nil)
    }

    @Test func roundTripsThroughRedirectURLAndJSON() async {
        await propertyCheck(input: Self.generator) { response throws in
            #expect(try AuthorizationResponse.decode(redirectURL: response.redirectURL(to: "com.example.app:/cb")) == response)
            #expect(try AuthorizationResponse.decode(query: response.parameters.encoded) == response)
            #expect(try JSONBody.decode(AuthorizationResponse.self, from: JSONBody.encode(response), limit: .default, what: "x") == response)
        }
    }
}
