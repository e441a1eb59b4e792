import PropertyBased
import Testing
@testable import SignInProtocol
@testable import SignInProtocolCore

@Suite struct TokenResponseTests {
    @Test func expiresInAsNumberOrStringIsAlwaysWrittenAsANumber() throws {
        let number = try TokenResponse.decode(json: #"{"access_token":"at","token_type":"bearer","expires_in":3600,"refresh_token":"rt"}"#)
        let string = try TokenResponse.decode(json: #"{"access_token":"at","token_type":"bearer","expires_in":"3600","refresh_token":"rt"}"#)
        #expect(number == string)
        #expect(number.expiresIn == 3600)
        #expect(string.json == #"{"access_token":"at","expires_in":3600,"refresh_token":"rt","token_type":"bearer"}"#)
        // Office: 0 means the token does not expire.
        #expect(try TokenResponse.decode(json: #"{"access_token":"at","token_type":"Bearer","expires_in":"0"}"#).expiresIn == 0)
        #expect(try TokenResponse.decode(json: #"{"access_token":"at","token_type":"Bearer","expires_in":null}"#).expiresIn == nil)
    }

    @Test func spidExtraFieldsAreKept() throws {
        // Seed 003: access_token=94daab, expires_in=3600, user_id=1001.
        let response = try TokenResponse.decode(json: #"{"access_token":"94daab","token_type":"Bearer","expires_in":3600,"user_id":1001,"id_token":"eyJ","flags":[true,null,1.5,{"a":"b"}]}"#)
        #expect(response.additionalFields["user_id"] == .integer(1001))
        #expect(response.additionalFields["id_token"] == .string("eyJ"))
        #expect(response.additionalFields["flags"] == .array([.bool(true), .null, .number(1.5), .object(["a": .string("b")])]))
        #expect(try TokenResponse.decode(json: response.json) == response)
    }

    @Test(arguments: ["-1", #""-1""#, #""1h""#, #""""#, "1.5", "true", #""99999999999999999999""#])
    func badExpiresInIsNamed(value: String) {
        let error = #expect(throws: OAuthDecodingError.self) {
            try TokenResponse.decode(json: #"{"access_token":"at","token_type":"Bearer","expires_in":"# + value + "}")
        }
        guard case .invalidParameter("expires_in", _) = error else { Issue.record("got \(String(describing: error))"); return }
    }

    @Test func missingEmptyAndMalformedFields() {
        #expect(throws: OAuthDecodingError.missingParameter("access_token")) { try TokenResponse.decode(json: #"{"token_type":"Bearer"}"#) }
        #expect(throws: OAuthDecodingError.missingParameter("token_type")) { try TokenResponse.decode(json: #"{"access_token":"a"}"#) }
        #expect(throws: OAuthDecodingError.invalidParameter("access_token", reason: "must not be empty")) {
            try TokenResponse.decode(json: #"{"access_token":"","token_type":"Bearer"}"#)
        }
        #expect(throws: OAuthDecodingError.invalidParameter("access_token", reason: "expected String")) {
            try TokenResponse.decode(json: #"{"access_token":1,"token_type":"Bearer"}"#)
        }
        let notJSON = #expect(throws: OAuthDecodingError.self) { try TokenResponse.decode(json: "access_token=a") }
        #expect(notJSON.map { if case .invalidJSON = $0 { true } else { false } } == true)
        #expect(throws: OAuthDecodingError.tooLarge(InputTooLarge(what: "token response", limit: 8, actual: 10))) {
            try TokenResponse.decode(json: "{        }", limit: InputLimit(maxBytes: 8))
        }
    }

    static var jsonValues: Generator<JSONValue, some SendableSequenceType> {
        zip(Gen<Int>.int(in: 0...4), OAuthGen.text, Gen<Int64>.int64(in: -1_000_000...1_000_000))
            .map { kind, text, number -> JSONValue in
                switch kind {
                case 0: .string(text)
                case 1: .integer(number)
                case 2: .bool(number % 2 == 0)
                case 3: .array([.string(text), .null])
                default: .object([text: .integer(number)])
                }
            }
    }

    static var generator: Generator<TokenResponse, some SendableSequenceType> {
        zip(OAuthGen.text, OAuthGen.optionals(4), Gen<Int>.int(in: 0...1_000_000).optional, zip(OAuthGen.text, jsonValues).array(of: 0...3))
            .map { token, o, expires, extra in
                TokenResponse(
                    accessToken: token, tokenType: o[0] ?? "Bearer", expiresIn: expires, refreshToken: o[1], scope: o[2],
                    issuedTokenType: o[3],
                    additionalFields: Dictionary(extra.map { ("x_" + $0.0, $0.1) }, uniquingKeysWith: { first, _ in first }))
            }
    }

    @Test func roundTripsThroughJSON() async {
        await propertyCheck(input: Self.generator) { response throws in
            #expect(try TokenResponse.decode(json: response.json) == response)
        }
    }
}
