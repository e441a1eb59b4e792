import PropertyBased
import Testing
@testable import SignInProtocol
@testable import SignInProtocolCore

@Suite struct AuthorizationRequestTests {
    // Seed 004, "Invoking the sign in screen", verbatim.
    static let officeAuthorizeURL = "https://contoso.com/api/oauth2/authorize?client_id=abcdefg&redirect_uri=https%3A%2F%2Flocalhost&response_type=code&scope=&rs=en-US&Build=16.1.1234&Platform=iOS"
    // Seed 000, "Example authorize request URL", verbatim.
    static let vippsAuthorizeURL = ".../oauth2/auth?app_callback_uri=https://example.com/app-callback&requested_flow=app_to_app&scope=<scopes>&response_type=code&redirect_uri=merchantapp://callback&code_challenge_method=S256&state=<state>&nonce=<nonce>&client_id=<clientid>&code_challenge=<challenge>"

    @Test func officeAuthorizeURLWithMixedCaseParameters() throws {
        let request = try AuthorizationRequest.decode(url: Self.officeAuthorizeURL)
        #expect(request.clientID == "abcdefg")
        #expect(request.redirectURI == "https://localhost")
        #expect(request.responseType == "code")
        #expect(request.scope == nil)  // `scope=` is as if omitted (RFC 6749 §3.1)
        #expect(request.culture == "en-US")
        #expect(request.build == "16.1.1234")
        #expect(request.platform == "iOS")
        #expect(request.additionalParameters.isEmpty)
        #expect(request.query == "client_id=abcdefg&response_type=code&redirect_uri=https%3A%2F%2Flocalhost&rs=en-US&build=16.1.1234&platform=iOS")
    }

    @Test func officeToURLQueryKeepsAppAndAction() throws {
        // The query of the Microsoft's app-to-app docs To URL; OfficeToURL adds the scheme handling.
        let request = try AuthorizationRequest.decode(query: "client_id=abcdefg&response_type=code&scope=wopi&rs=enUS&build=16.1.1234&platform=iOS&app=word&action=76d173ad-a43f-4e3c-a5e7-0e7276b4c624")
        #expect(request.scope == "wopi")
        #expect(request.culture == "enUS")
        #expect(request.redirectURI == nil)
        #expect(request.additionalParameters["app"] == "word")
        #expect(request.additionalParameters["action"] == "76d173ad-a43f-4e3c-a5e7-0e7276b4c624")
    }

    @Test func vippsAppToAppAuthorizeURL() throws {
        let request = try AuthorizationRequest.decode(url: Self.vippsAuthorizeURL)
        #expect(request.appCallbackURI == "https://example.com/app-callback")
        #expect(request.requestedFlow == "app_to_app")
        #expect(request.redirectURI == "merchantapp://callback")
        #expect(request.scope == "<scopes>")
        #expect(request.codeChallengeMethod == "S256")
        #expect(request.codeChallenge == "<challenge>")
        #expect(request.state == "<state>")
        #expect(request.nonce == "<nonce>")
        #expect(request.clientID == "<clientid>")
    }

    @Test func urlKeepsTheEndpointsOwnQuery() {
        let request = AuthorizationRequest(clientID: "a b", redirectURI: "com.example.app:/cb", state: "s&t")
        #expect(request.url(authorizationEndpoint: "https://idp.example/authorize") == "https://idp.example/authorize?client_id=a%20b&response_type=code&redirect_uri=com.example.app%3A%2Fcb&state=s%26t")
        #expect(request.url(authorizationEndpoint: "https://idp.example/authorize?tenant=x") == "https://idp.example/authorize?tenant=x&client_id=a%20b&response_type=code&redirect_uri=com.example.app%3A%2Fcb&state=s%26t")
    }

    @Test(arguments: ["client_id", "redirect_uri", "scope", "state", "code_challenge", "app_callback_uri"])
    func duplicateParameterIsInvalidRequestNamingIt(name: String) {
        let query = "client_id=a&response_type=code&\(name)=1&\(name)=2"
        #expect(throws: OAuthDecodingError.duplicateParameter(name)) { try AuthorizationRequest.decode(query: query) }
        let error = try? AuthorizationRequest.decode(query: query)
        #expect(error == nil)
        #expect(OAuthDecodingError.duplicateParameter(name).oauthError.code == .invalidRequest)
        #expect(OAuthDecodingError.duplicateParameter(name).oauthError.errorDescription?.contains(name) == true)
    }

    @Test func officeParametersAreDuplicatesIgnoringCase() {
        #expect(throws: OAuthDecodingError.duplicateParameter("build")) {
            try AuthorizationRequest.decode(query: "client_id=a&response_type=code&Build=1&build=2")
        }
    }

    @Test func unknownParametersMayRepeat() throws {
        let request = try AuthorizationRequest.decode(query: "client_id=a&response_type=code&resource=x&resource=y")
        #expect(request.additionalParameters.values(for: "resource") == ["x", "y"])
    }

    @Test func missingRequiredParameters() {
        #expect(throws: OAuthDecodingError.missingParameter("client_id")) { try AuthorizationRequest.decode(query: "response_type=code") }
        #expect(throws: OAuthDecodingError.missingParameter("client_id")) { try AuthorizationRequest.decode(query: "client_id=&response_type=code") }
        #expect(throws: OAuthDecodingError.missingParameter("response_type")) { try AuthorizationRequest.decode(query: "client_id=a") }
        #expect(throws: OAuthDecodingError.missingParameter("client_id")) { try AuthorizationRequest.decode(url: "https://idp.example/authorize") }
    }

    @Test func badEscapeIsReportedWithItsOffsetInTheWholeURL() {
        #expect(throws: OAuthDecodingError.badEncoding(parameter: "state", .invalidEscape(offset: 30))) {
            try AuthorizationRequest.decode(url: "https://x/a?client_id=a&state=%zz&response_type=code")
        }
    }

    @Test func refusesInputOverTheLimit() {
        let query = "client_id=a&response_type=code&state=" + String(repeating: "s", count: 200)
        #expect(throws: OAuthDecodingError.tooLarge(InputTooLarge(what: "authorization request", limit: 100, actual: query.utf8.count))) {
            try AuthorizationRequest.decode(query: query, limit: InputLimit(maxBytes: 100))
        }
        #expect(throws: OAuthDecodingError.tooLarge(InputTooLarge(what: "authorization request URL", limit: 100, actual: query.utf8.count + 2))) {
            try AuthorizationRequest.decode(url: "x?" + query, limit: InputLimit(maxBytes: 100))
        }
    }

    @Test func jsonFormUsesWireNames() throws {
        var request = AuthorizationRequest(clientID: "c", state: "s", culture: "enUS")
        request.additionalParameters.append("app", "word")
        let json = JSONBody.encode(request)
        #expect(json == #"{"additional_parameters":[{"name":"app","value":"word"}],"client_id":"c","response_type":"code","rs":"enUS","state":"s"}"#)
        #expect(try JSONBody.decode(AuthorizationRequest.self, from: json, limit: .default, what: "x") == request)
    }

    static var generator: Generator<AuthorizationRequest, some SendableSequenceType> {
        zip(OAuthGen.text, OAuthGen.optionals(12), OAuthGen.extraParameters(avoiding: []))
        .map { id, o, extra in
            AuthorizationRequest(
                clientID: id, responseType: o[0] ?? "code", redirectURI: o[1], scope: o[2], state: o[3], nonce: o[4],
                codeChallenge: o[5], codeChallengeMethod: o[6], culture: o[7], build: o[8], platform: o[9],
                requestedFlow: o[10], appCallbackURI: o[11], additionalParameters: extra)
        }
    }

    @Test func roundTripsThroughQueryURLAndJSON() async {
        await propertyCheck(input: Self.generator) { request throws in
            #expect(try AuthorizationRequest.decode(query: request.query) == request)
            #expect(try AuthorizationRequest.decode(url: request.url(authorizationEndpoint: "https://idp.example/a?t=1")).additionalParameters.pairs.first == .init("t", "1"))
            #expect(try JSONBody.decode(AuthorizationRequest.self, from: JSONBody.encode(request), limit: .default, what: "x") == request)
        }
    }
}
