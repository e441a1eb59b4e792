import PropertyBased
import Testing
@testable import SignInProtocol
@testable import SignInProtocolCore

@Suite struct OAuthErrorTests {
    @Test(arguments: [
        ("invalid_request", 400), ("unauthorized_client", 400), ("access_denied", 403),
        ("unsupported_response_type", 400), ("invalid_scope", 400), ("server_error", 500),
        ("temporarily_unavailable", 503), ("invalid_client", 401), ("invalid_grant", 400),
        ("unsupported_grant_type", 400), ("invalid_token", 401), ("insufficient_scope", 403),
        ("unsupported_token_type", 400), ("invalid_target", 400), ("interaction_required", 400),
        ("login_required", 400), ("consent_required", 400), ("invalid_request_uri", 400), ("authorization_pending", 400), ("expired_token", 400),
        ("invalid_dpop_proof", 400), ("use_dpop_nonce", 400), ("unknown_error", 400),
        ("invalid_client_attestation", 401), ("use_fresh_attestation", 401),
    ])
    func everyCodeHasItsWireNameAndStatus(raw: String, status: Int) {
        let code = OAuthError.Code(rawValue: raw)
        #expect(code.rawValue == raw)
        #expect(code.httpStatus == status)
        if raw == "unknown_error" {
            #expect(code == .other("unknown_error"))
        } else {
            #expect(OAuthError.Code.registered.contains(code))
        }
    }

    @Test func otherWithARegisteredNameEqualsTheRegisteredCase() {
        #expect(OAuthError.Code.other("invalid_grant") == .invalidGrant)
        #expect(Set([OAuthError.Code.other("invalid_grant"), .invalidGrant]).count == 1)
        #expect(OAuthError.Code.registered.count == 24)
    }

    @Test func everyNamedCodeCitesAPublicSource() {
        for code in OAuthError.Code.registered {
            #expect(code.source.hasPrefix("RFC ") || code.source.hasPrefix("OpenID Connect") || code.source.hasPrefix("draft-ietf-oauth-"), "\(code)")
            // The wire name is itself a valid code (RFC 6749 section 5.2 charset).
            #expect(OAuthError.Code(validating: code.rawValue) == code)
        }
        #expect(OAuthError.Code.other("unknown_error").source == "not defined by this package")
    }

    /// RFC 6749 §5.2: error_description is %x20-21 / %x23-5B / %x5D-7E; nothing else reaches the wire.
    @Test(arguments: [
        ("client 'files\u{0}backend' is unknown", "client 'files?backend' is unknown"),
        ("RFC 6749 §3.2", "RFC 6749 ?3.2"),
        ("a \"quoted\" \\ path", "a ?quoted? ? path"),
        ("line\nbreak\ttab", "line?break?tab"),
        ("plain text stays", "plain text stays"),
    ])
    func descriptionsAreWrittenWithinTheRFCCharacterSet(written: String, onTheWire: String) throws {
        let error = OAuthError(.invalidRequest, description: written)
        #expect(error.wireDescription == onTheWire)
        #expect(try OAuthError.decode(json: error.json).errorDescription == onTheWire)
        #expect(error.parameters["error_description"] == onTheWire)
    }

    @Test func jsonFormMatchesRFC6749Section5_2() throws {
        let error = OAuthError(.invalidGrant, description: "code expired", uri: "https://example.com/e")
        #expect(error.json == #"{"error":"invalid_grant","error_description":"code expired","error_uri":"https://example.com/e"}"#)
        #expect(try OAuthError.decode(json: error.json) == error)
        #expect(try OAuthError.decode(json: #"{"error":"invalid_request"}"#) == OAuthError(.invalidRequest))
    }

    @Test func formFormForRedirects() throws {
        let error = OAuthError(.accessDenied, description: "user said no")
        #expect(error.parameters.encoded == "error=access_denied&error_description=user%20said%20no")
        let decoded = try OAuthError.decode(from: FormParameters.decode("error=access_denied&error_description=user+said+no"))
        #expect(decoded == error)
        #expect(try OAuthError.decode(from: FormParameters.decode("code=abc")) == nil)
    }

    @Test func rejectsACodeOutsideTheRFCCharacterSet() {
        #expect(throws: OAuthDecodingError.invalidParameter("error", reason: "an error code is one or more printable ASCII characters other than '\"' and '\\' (RFC 6749 section 5.2)")) {
            try OAuthError.decode(from: FormParameters([.init("error", "bad\"code")]))
        }
        #expect(throws: OAuthDecodingError.self) { try OAuthError.decode(json: #"{"error":"é"}"#) }
        #expect(OAuthError.Code(validating: "") == nil)
    }

    @Test func rejectsDuplicatesMissingFieldsAndHugeBodies() {
        #expect(throws: OAuthDecodingError.duplicateParameter("error")) {
            try OAuthError.decode(from: FormParameters.decode("error=a&error=b"))
        }
        #expect(throws: OAuthDecodingError.missingParameter("error")) {
            try OAuthError.decode(json: #"{"error_description":"x"}"#)
        }
        let notAnObject = #expect(throws: OAuthDecodingError.self) { try OAuthError.decode(json: "[1]") }
        #expect(notAnObject.map { if case .invalidJSON = $0 { true } else { false } } == true)
        let huge = #"{"error":"x","error_description":""# + String(repeating: "a", count: 9000) + #""}"#
        #expect(throws: OAuthDecodingError.tooLarge(InputTooLarge(what: "OAuth error response", limit: 8192, actual: huge.utf8.count))) {
            try OAuthError.decode(json: huge)
        }
    }

    @Test func decodingErrorsMapToTheRFCCodes() {
        #expect(OAuthDecodingError.missingParameter("code").oauthError.code == .invalidRequest)
        #expect(OAuthDecodingError.missingParameter("code").oauthError.errorDescription == "required parameter 'code' is missing")
        #expect(OAuthDecodingError.unsupportedGrantType("magic").oauthError.code == .unsupportedGrantType)
        #expect(OAuthDecodingError.invalidClientAuthentication(reason: "x").oauthError.code == .invalidClient)
    }

    @Test func roundTripsInBothForms() async {
        let codes = Gen<OAuthError.Code?>.element(of: OAuthError.Code.registered + [.other("unknown_error"), .other("x y")]).map { $0! }
        await propertyCheck(input: codes, OAuthGen.optionalText, OAuthGen.optionalText) { code, description, uri throws in
            let error = OAuthError(code, description: description, uri: uri)
            // What is read back is what was written: the description within the RFC 6749 §5.2 character set.
            let written = OAuthError(code, description: description.map(OAuthError.wireSafe), uri: uri)
            #expect(try OAuthError.decode(from: FormParameters.decode(error.parameters.encoded)) == written)
            #expect(try OAuthError.decode(json: error.json) == written)
        }
    }
}
