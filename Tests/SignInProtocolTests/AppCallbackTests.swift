import PropertyBased
import Testing
@testable import SignInProtocol
@testable import SignInProtocolCore

@Suite struct AppCallbackTests {
    // Seed 000, verbatim.
    static let documentedCallback = "merchant-app://callback/?state=RFiQdrl_lvJUpVmTRSKmsZRGLM0G1N1qh0WebZ1gDNk&resume_uri=https%3A%2F%2Fapi.vipps.no%2Fvipps-login-idp%2Findex.html%3FtabId%3D7607f7f0-7ae2-49b7-9cb5-102143dac4ea"
    static let successCallbacks = [
        "https://example.com/app-callback?state=218gz18yveu1ybajwh2g1h3g&resume_uri=https://.../vipps-login-idp/index.html?tabid=fjeiwfje43t",
        "merchantapp://app-callback?state=218gz18yveu1ybajwh2g1h3g&resume_uri=https://.../vipps-login-idp/index.html?tabid=fjeiwfje43t",
    ]
    static let errorCallbacks = [
        "https://example.com/app-callback?state=218gz18yveu1ybajwh2g1h3g?error=unknown_error",
        "merchantapp://app-callback?state=218gz18yveu1ybajwh2g1h3g?error=unknown_error",
    ]

    @Test func documentedAppCallbackRequest() throws {
        let callback = try AppCallback.decode(url: Self.documentedCallback)
        #expect(callback.callbackURI == "merchant-app://callback/")
        #expect(callback.state == "RFiQdrl_lvJUpVmTRSKmsZRGLM0G1N1qh0WebZ1gDNk")
        #expect(callback.resumeURI == "https://api.vipps.no/vipps-login-idp/index.html?tabId=7607f7f0-7ae2-49b7-9cb5-102143dac4ea")
        #expect(callback.url == Self.documentedCallback)
        #expect(callback.matches(state: "RFiQdrl_lvJUpVmTRSKmsZRGLM0G1N1qh0WebZ1gDNk"))
        #expect(!callback.matches(state: "RFiQdrl_lvJUpVmTRSKmsZRGLM0G1N1qh0WebZ1gDNK"))
    }

    @Test(arguments: successCallbacks)
    func successCallbackWithAnUnencodedResumeURI(url: String) throws {
        let callback = try AppCallback.decode(url: url)
        #expect(callback.state == "218gz18yveu1ybajwh2g1h3g")
        #expect(callback.resumeURI == "https://.../vipps-login-idp/index.html?tabid=fjeiwfje43t")
        #expect(callback.error == nil)
    }

    @Test(arguments: errorCallbacks)
    func errorJoinedWithASecondQuestionMark(url: String) throws {
        let callback = try AppCallback.decode(url: url)
        #expect(callback.state == "218gz18yveu1ybajwh2g1h3g")
        #expect(callback.error == OAuthError(.other("unknown_error")))
        #expect(callback.resumeURI == nil)
        // We write the standard form back.
        #expect(callback.url.hasSuffix("app-callback?state=218gz18yveu1ybajwh2g1h3g&error=unknown_error"))
    }

    @Test func anEncodedQuestionMarkInStateIsData() throws {
        let callback = try AppCallback.decode(url: "app.example:/cb?state=a%3Ferror%3Dx&resume_uri=r")
        #expect(callback.state == "a?error=x")
        #expect(callback.resumeURI == "r")
    }

    @Test func refusesBrokenCallbacks() {
        #expect(throws: OAuthDecodingError.missingParameter("state")) { try AppCallback.decode(url: "merchantapp://app-callback") }
        #expect(throws: OAuthDecodingError.missingParameter("state")) { try AppCallback.decode(url: "merchantapp://app-callback?resume_uri=x") }
        #expect(throws: OAuthDecodingError.duplicateParameter("state")) { try AppCallback.decode(url: "m://c?state=a&state=b") }
        #expect(throws: OAuthDecodingError.duplicateParameter("error")) { try AppCallback.decode(url: "m://c?state=a?error=x&error=y") }
        #expect(throws: OAuthDecodingError.badEncoding(parameter: "state", .invalidEscape(offset: 21))) {
            try AppCallback.decode(url: "m://c?state=a?error=x%")
        }
        #expect(throws: OAuthDecodingError.tooLarge(InputTooLarge(what: "app callback URL", limit: 8192, actual: 9013))) {
            try AppCallback.decode(url: "m://c?state=" + String(repeating: "s", count: 9001))
        }
    }

    static var generator: Generator<AppCallback, some SendableSequenceType> {
        zip(OAuthGen.text, OAuthGen.optionals(2), Gen<Bool>.bool, OAuthGen.extraParameters(avoiding: []))
            .map { state, o, failed, extra in
                AppCallback(
                    callbackURI: "merchantapp://app-callback", state: state,
                                        // The description as it can be written (RFC 6749 §4.1.2.1's charset: `OAuthError.wireSafe`).
                    outcome: failed ? .failed(OAuthError(.other("unknown_error"), description: o[1].map(OAuthError.wireSafe))) : .approved(resumeURI: o[0]),
                    additionalParameters: extra)
            }
    }

    @Test func roundTripsThroughURLAndJSON() async {
        await propertyCheck(input: Self.generator) { callback throws in
            #expect(try AppCallback.decode(url: callback.url) == callback)
            #expect(try JSONBody.decode(AppCallback.self, from: JSONBody.encode(callback), limit: .default, what: "x") == callback)
        }
    }
}
