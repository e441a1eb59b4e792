import Foundation
import Testing
import SignInProtocol

@Suite struct ClientAuthenticationTests {
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
        // Optional whitespace (RFC 9110 §5.6.3) around the credentials is not part of them.
        let spaced = try ClientAuthentication.decode(basicAuthorization: "Basic \t " + "a:b".base64 + " \t")
        #expect(spaced == ClientAuthentication(clientID: "a", clientSecret: "b", method: .httpBasic))
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
}

extension String {
    var base64: String { Data(utf8).base64EncodedString() }
}
