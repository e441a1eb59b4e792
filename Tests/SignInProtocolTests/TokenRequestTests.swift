import Foundation
import PropertyBased
import Testing
@testable import SignInProtocol

@Suite struct TokenRequestTests {
    @Test func spidCodeRedemption() throws {
        // Seed 003: the device's POST /oauth/token, its fields joined as a form body.
        let request = try TokenRequest.decode(form: "grant_type=authorization_code&redirect_uri=client_app_scheme://spid/login&client_id=1234&client_secret=abcd&code=123abc")
        #expect(request.grant == .authorizationCode(code: "123abc", redirectURI: "client_app_scheme://spid/login", codeVerifier: nil))
        #expect(request.client == ClientAuthentication(clientID: "1234", clientSecret: "abcd", method: .requestBody))
        #expect(request.formBody == "grant_type=authorization_code&code=123abc&redirect_uri=client_app_scheme%3A%2F%2Fspid%2Flogin&client_id=1234&client_secret=abcd")
        #expect(request.authorizationHeader == nil)
    }

    @Test func everyGrantType() throws {
        #expect(try TokenRequest.decode(form: "grant_type=refresh_token&refresh_token=r1&client_id=app&scope=wopi").grant == .refreshToken("r1"))
        #expect(try TokenRequest.decode(form: "grant_type=client_credentials&scope=a+b").scope == "a b")
        #expect(try TokenRequest.decode(form: "grant_type=password&username=u&password=p").grant == .password(username: "u", password: "p"))
        #expect(try TokenRequest.decode(form: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=eyJ").grant == .jwtBearer(assertion: "eyJ"))
        let exchange = try TokenRequest.decode(form: "grant_type=urn:ietf:params:oauth:grant-type:token-exchange&subject_token=t&subject_token_type=urn:ietf:params:oauth:token-type:access_token&resource=https://a&resource=https://b&audience=x&requested_token_type=urn:ietf:params:oauth:token-type:refresh_token")
        #expect(exchange.grant == .tokenExchange(.init(
            subjectToken: "t", subjectTokenType: "urn:ietf:params:oauth:token-type:access_token",
            requestedTokenType: "urn:ietf:params:oauth:token-type:refresh_token", resources: ["https://a", "https://b"], audiences: ["x"])))
        #expect(exchange.client == nil)
    }

    @Test func pkceVerifierAndUnknownParametersAreKept() throws {
        let request = try TokenRequest.decode(form: "grant_type=authorization_code&code=c&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk&client_id=app&resource=https://api")
        #expect(request.grant == .authorizationCode(code: "c", redirectURI: nil, codeVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
        #expect(request.client == ClientAuthentication(clientID: "app"))
        #expect(request.additionalParameters == FormParameters([.init("resource", "https://api")]))
    }

    @Test func unknownGrantTypeIsUnsupportedGrantType() {
        #expect(throws: OAuthDecodingError.unsupportedGrantType("urn:ietf:params:oauth:grant-type:device_code")) {
            try TokenRequest.decode(form: "grant_type=urn:ietf:params:oauth:grant-type:device_code&device_code=x")
        }
        #expect(OAuthDecodingError.unsupportedGrantType("x").oauthError.code == .unsupportedGrantType)
    }

    @Test(arguments: [
        ("client_id=a", "grant_type"),
        ("grant_type=authorization_code", "code"),
        ("grant_type=authorization_code&code=", "code"),
        ("grant_type=refresh_token", "refresh_token"),
        ("grant_type=password&username=u", "password"),
        ("grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer", "assertion"),
        ("grant_type=urn:ietf:params:oauth:grant-type:token-exchange&subject_token_type=t", "subject_token"),
        ("grant_type=urn:ietf:params:oauth:grant-type:token-exchange&subject_token=s", "subject_token_type"),
        ("grant_type=urn:ietf:params:oauth:grant-type:token-exchange&subject_token=s&subject_token_type=t&actor_token=a", "actor_token_type"),
        ("grant_type=client_credentials&client_secret=s", "client_id"),
    ])
    func missingRequiredFieldIsNamed(body: String, field: String) {
        #expect(throws: OAuthDecodingError.missingParameter(field)) { try TokenRequest.decode(form: body) }
    }

    @Test func duplicatesAndStrayActorTokenType() {
        #expect(throws: OAuthDecodingError.duplicateParameter("code")) {
            try TokenRequest.decode(form: "grant_type=authorization_code&code=a&code=b")
        }
        #expect(throws: OAuthDecodingError.duplicateParameter("grant_type")) {
            try TokenRequest.decode(form: "grant_type=refresh_token&grant_type=password")
        }
        #expect(throws: OAuthDecodingError.invalidParameter("actor_token_type", reason: "only allowed with actor_token (RFC 8693 §2.1)")) {
            try TokenRequest.decode(form: "grant_type=urn:ietf:params:oauth:grant-type:token-exchange&subject_token=s&subject_token_type=t&actor_token_type=x")
        }
        #expect(throws: OAuthDecodingError.badEncoding(parameter: "code", .invalidEscape(offset: 35))) {
            try TokenRequest.decode(form: "grant_type=authorization_code&code=%")
        }
        #expect(throws: OAuthDecodingError.tooLarge(InputTooLarge(what: "token request", limit: 8192, actual: 9030))) {
            try TokenRequest.decode(form: "grant_type=x&code=" + String(repeating: "c", count: 9012))
        }
    }

    @Test func basicHeaderCredentials() throws {
        // RFC 6749 §2.3.1: id and secret are form-url-encoded before base64, so ':' and non-ASCII survive.
        let client = ClientAuthentication(clientID: "my:app", clientSecret: "s3cr t/é", method: .httpBasic)
        let request = TokenRequest(grant: .refreshToken("r"), client: client)
        #expect(request.formBody == "grant_type=refresh_token&refresh_token=r")
        let header = try #require(request.authorizationHeader)
        #expect(header == "Basic bXklM0FhcHA6czNjciUyMHQlMkYlQzMlQTk=")
        #expect(try TokenRequest.decode(form: request.formBody, authorization: header) == request)
        // `+` in the encoded secret is a space, as form-url-decoding says.
        let plus = try ClientAuthentication.decode(basicAuthorization: "basic " + "a:b+c".base64)
        #expect(plus == ClientAuthentication(clientID: "a", clientSecret: "b c", method: .httpBasic))
        // A matching client_id in the body is allowed.
        #expect(try TokenRequest.decode(form: "grant_type=client_credentials&client_id=a", authorization: "Basic " + "a:b".base64).client?.clientID == "a")
    }

    @Test func badClientAuthenticationIsInvalidClient() {
        let cases: [(String?, String, String)] = [
            ("Bearer abc", "grant_type=client_credentials", "the Authorization header must use the Basic scheme"),
            ("Basic !!!", "grant_type=client_credentials", "the Basic credentials are not base64 of UTF-8 text"),
            ("Basic " + "nocolon".base64, "grant_type=client_credentials", "the Basic credentials have no ':' between id and secret"),
            ("Basic " + ":secret".base64, "grant_type=client_credentials", "the Basic credentials have an empty client id"),
            ("Basic " + "a%zz:b".base64, "grant_type=client_credentials", "the Basic credentials are not form-url-encoded: '%' not followed by two hex digits at byte 1"),
            ("Basic " + "a:b".base64, "grant_type=client_credentials&client_secret=b", "client credentials sent both in the Authorization header and in the body"),
            ("Basic " + "a:b".base64, "grant_type=client_credentials&client_id=z", "client_id in the body differs from the Authorization header"),
        ]
        for (header, body, reason) in cases {
            #expect(throws: OAuthDecodingError.invalidClientAuthentication(reason: reason)) {
                try TokenRequest.decode(form: body, authorization: header)
            }
        }
        #expect(OAuthDecodingError.invalidClientAuthentication(reason: "x").oauthError.httpStatus == 401)
    }

    @Test func descriptionNeverShowsTheSecret() {
        let client = ClientAuthentication(clientID: "app", clientSecret: "hunter2")
        #expect(!"\(client)".contains("hunter2"))
    }

    static var grants: Generator<TokenRequest.Grant, some SendableSequenceType> {
        zip(Gen<Int>.int(in: 0...5), OAuthGen.text, OAuthGen.optionals(5), OAuthGen.text.array(of: 0...2))
            .map { kind, text, o, list -> TokenRequest.Grant in
                switch kind {
                case 0: .authorizationCode(code: text, redirectURI: o[0], codeVerifier: o[1])
                case 1: .refreshToken(text)
                case 2: .clientCredentials
                case 3: .password(username: text, password: o[0] ?? "p")
                case 4: .jwtBearer(assertion: text)
                default:
                    .tokenExchange(.init(
                        subjectToken: text, subjectTokenType: o[0] ?? "t", actorToken: o[1],
                        actorTokenType: o[1] == nil ? nil : (o[2] ?? "a"), requestedTokenType: o[3],
                        resources: list, audiences: list.reversed()))
                }
            }
    }

    static var generator: Generator<TokenRequest, some SendableSequenceType> {
        zip(grants, OAuthGen.optionals(3), Gen<Bool>.bool, OAuthGen.extraParameters(avoiding: []))
            .map { grant, o, basic, extra in
                let client = o[0].map { ClientAuthentication(clientID: $0, clientSecret: o[1], method: basic ? .httpBasic : .requestBody) }
                return TokenRequest(grant: grant, scope: o[2], client: client, additionalParameters: extra)
            }
    }

    @Test func roundTripsThroughFormAndHeader() async {
        await propertyCheck(input: Self.generator) { request throws in
            #expect(try TokenRequest.decode(form: request.formBody, authorization: request.authorizationHeader) == request)
        }
    }
}

extension String {
    var base64: String { Data(utf8).base64EncodedString() }
}
