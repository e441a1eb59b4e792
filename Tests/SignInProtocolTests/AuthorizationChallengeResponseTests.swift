import Testing
@testable import SignInProtocolCore

/// draft-ietf-oauth-first-party-apps-04 §5.2: the challenge endpoint's two answers.
@Suite struct AuthorizationChallengeResponseTests {
    /// §5.2.1: the code is the member `authorization_code` (not `code`).
    @Test func codeAnswerIsAuthorizationCodeMember() throws {
        let answer = AuthorizationChallengeResponse.code("uY29tL2F1dGhlbnRpY")
        #expect(answer.json == #"{"authorization_code":"uY29tL2F1dGhlbnRpY"}"#)
        #expect(try AuthorizationChallengeResponse.decode(json: answer.json) == answer)
    }

    /// §5.2.2: error, auth_session, request_uri, expires_in and members the server defines, at the top level.
    @Test func errorAnswerCarriesAuthSessionAndServerMembers() throws {
        let error = AuthorizationChallengeError(
            OAuthError(.insufficientAuthorization, description: "sign in"), authSession: "s1",
            additionalFields: ["password_required": .bool(true)])
        let answer = AuthorizationChallengeResponse.error(error)
        #expect(
            answer.json
                == #"{"auth_session":"s1","error":"insufficient_authorization","error_description":"sign in","password_required":true}"#)
        #expect(try AuthorizationChallengeResponse.decode(json: answer.json) == answer)
    }

    /// §5.2.2.1.1: redirect_to_web with a request_uri and its lifetime (RFC 9126 §2.2).
    @Test func redirectToWebCarriesRequestURI() throws {
        let json = #"{"error":"redirect_to_web","request_uri":"urn:ietf:params:oauth:request_uri:x","expires_in":60}"#
        guard case .error(let error) = try AuthorizationChallengeResponse.decode(json: json) else {
            Issue.record("not an error")
            return
        }
        #expect(error.error.code == .redirectToWeb)
        #expect(error.requestURI == "urn:ietf:params:oauth:request_uri:x")
        #expect(error.expiresIn == 60)
        #expect(error.additionalFields.isEmpty)
    }

    @Test(arguments: [
        #"{}"#, #"{"authorization_code":""}"#, #"{"error":7}"#, #"{"error":"bad\"code"}"#,
        #"{"error":"x","expires_in":-1}"#, #"[]"#,
    ])
    func malformedAnswersAreRefused(json: String) {
        #expect(throws: OAuthDecodingError.self) { try AuthorizationChallengeResponse.decode(json: json) }
    }
}
