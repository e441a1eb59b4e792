import Foundation
import PropertyBased
import Testing
@testable import SignInProtocol
@testable import SignInProtocolCore

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
        #expect(throws: OAuthDecodingError.invalidParameter("actor_token_type", reason: "only allowed with actor_token (RFC 8693 section 2.1)")) {
            try TokenRequest.decode(form: "grant_type=urn:ietf:params:oauth:grant-type:token-exchange&subject_token=s&subject_token_type=t&actor_token_type=x")
        }
        #expect(throws: OAuthDecodingError.badEncoding(parameter: "code", .invalidEscape(offset: 35))) {
            try TokenRequest.decode(form: "grant_type=authorization_code&code=%")
        }
        #expect(throws: OAuthDecodingError.tooLarge(InputTooLarge(what: "token request", limit: 8192, actual: 9030))) {
            try TokenRequest.decode(form: "grant_type=x&code=" + String(repeating: "c", count: 9012))
        }
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
