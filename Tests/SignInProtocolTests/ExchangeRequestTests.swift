import PropertyBased
import Testing
@testable import SignInProtocol
@testable import SignInProtocolCore

@Suite struct ExchangeRequestTests {
    @Test func spidExchangeRequestsFromTheSeed() throws {
        // Seed 003: "clientId=9876 type=code oauth_token=94daab", and the same with type=session.
        let code = try ExchangeRequest.decode(form: "clientId=9876&type=code&oauth_token=94daab")
        #expect(code == ExchangeRequest(targetClientID: "9876", type: .code, userToken: "94daab", tokenPlacement: .formField))
        #expect(code.formBody == "clientId=9876&type=code&oauth_token=94daab")
        #expect(code.authorizationHeader == nil)
        let session = try ExchangeRequest.decode(form: "clientId=9876&type=session&oauth_token=94daab")
        #expect(session.type == .session)
    }

    @Test func documentedLifetimes() {
        #expect(ExchangeCodeType.code.defaultLifetime == .seconds(30))
        #expect(ExchangeCodeType.session.defaultLifetime == .seconds(60))
        #expect(ExchangeResponse(code: "456def", type: .code).json == #"{"code":"456def","expires_in":30,"type":"code"}"#)
        #expect(ExchangeResponse(code: "x", type: .session).expiresIn == 60)
    }

    @Test func bearerHeaderInsteadOfTheFormField() throws {
        let request = try ExchangeRequest.decode(form: "clientId=9876&type=code", authorization: "bearer 94daab==")
        #expect(request.userToken == "94daab==")
        #expect(request.tokenPlacement == .bearerHeader)
        #expect(request.authorizationHeader == "Bearer 94daab==")
        #expect(!"\(request)".contains("94daab"))
    }

    @Test func typedErrors() throws {
        #expect(throws: OAuthDecodingError.missingParameter("clientId")) { try ExchangeRequest.decode(form: "type=code&oauth_token=t") }
        #expect(throws: OAuthDecodingError.missingParameter("type")) { try ExchangeRequest.decode(form: "clientId=1&oauth_token=t") }
        #expect(throws: OAuthDecodingError.missingParameter("oauth_token")) { try ExchangeRequest.decode(form: "clientId=1&type=code") }
        #expect(throws: OAuthDecodingError.invalidParameter("type", reason: "must be 'code' or 'session'")) {
            try ExchangeRequest.decode(form: "clientId=1&type=token&oauth_token=t")
        }
        #expect(throws: OAuthDecodingError.duplicateParameter("clientId")) {
            try ExchangeRequest.decode(form: "clientId=1&clientId=2&type=code&oauth_token=t")
        }
        #expect(throws: OAuthDecodingError.invalidParameter("oauth_token", reason: "the token was also sent in the Authorization header (RFC 6750 section 2)")) {
            try ExchangeRequest.decode(form: "clientId=1&type=code&oauth_token=t", authorization: "Bearer t")
        }
        // RFC 6750 §3.1: another scheme, or a bearer header without a usable token, is no token at all.
        for header in ["Basic dTpw", "Bearer a,b", "Bearer ", "Bearer    ", ""] {
            #expect(throws: OAuthDecodingError.missingParameter("oauth_token")) {
                try ExchangeRequest.decode(form: "clientId=1&type=code", authorization: header)
            }
        }
        // ... and a form token beside a Basic header is the one token.
        #expect(try ExchangeRequest.decode(form: "clientId=1&type=code&oauth_token=t", authorization: "Basic dTpw").userToken == "t")
        #expect(throws: OAuthDecodingError.badEncoding(parameter: "oauth_token", .invalidEscape(offset: 33))) {
            try ExchangeRequest.decode(form: "clientId=1&type=code&oauth_token=%x")
        }
        #expect(throws: OAuthDecodingError.tooLarge(InputTooLarge(what: "exchange request", limit: 16, actual: 20))) {
            try ExchangeRequest.decode(form: "clientId=1&type=code", limit: InputLimit(maxBytes: 16))
        }
    }

    @Test func responseDecoding() throws {
        #expect(try ExchangeResponse.decode(json: #"{"code":"456def"}"#) == ExchangeResponse(code: "456def"))
        #expect(try ExchangeResponse.decode(json: #"{"code":"456def","expires_in":"30","type":"session"}"#) == ExchangeResponse(code: "456def", type: .session, expiresIn: 30))
        #expect(throws: OAuthDecodingError.missingParameter("code")) { try ExchangeResponse.decode(json: "{}") }
        #expect(throws: OAuthDecodingError.invalidParameter("code", reason: "must not be empty")) { try ExchangeResponse.decode(json: #"{"code":""}"#) }
        let badType = #expect(throws: OAuthDecodingError.self) { try ExchangeResponse.decode(json: #"{"code":"c","type":"token"}"#) }
        guard case .invalidParameter("type", _) = badType else { Issue.record("got \(String(describing: badType))"); return }
    }

    static var generator: Generator<ExchangeRequest, some SendableSequenceType> {
        zip(OAuthGen.text, Gen<Bool>.bool, Gen<Int>.int(in: 20...60), Gen<Bool>.bool, OAuthGen.extraParameters(avoiding: []))
            .map { target, session, tokenLength, inHeader, extra in
                ExchangeRequest(
                    targetClientID: target, type: session ? .session : .code,
                    userToken: String(repeating: "aZ9-._~+/", count: tokenLength / 9) + "==",
                    tokenPlacement: inHeader ? .bearerHeader : .formField, additionalParameters: extra)
            }
    }

    @Test func roundTrips() async {
        await propertyCheck(input: Self.generator, OAuthGen.text, Gen<Int>.int(in: 0...600).optional) { request, code, expiresIn throws in
            #expect(try ExchangeRequest.decode(form: request.formBody, authorization: request.authorizationHeader) == request)
            let response = ExchangeResponse(code: code, type: request.type, expiresIn: expiresIn)
            #expect(try ExchangeResponse.decode(json: response.json) == response)
        }
    }
}
