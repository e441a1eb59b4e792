import SignInProtocol
import Testing

@Suite("Authorization challenge request")
struct AuthorizationChallengeRequestTests {
    /// draft-ietf-oauth-first-party-apps-04 §5.1: the first request is an authorization request (`response_type=code`,
    /// required since -03) with PKCE; the step's credentials ride along.
    @Test func theFirstRequestIsAnAuthorizationRequestWithPKCE() throws {
        let verifier = try PKCE.Verifier("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")  // RFC 7636 Appendix B
        let request = AuthorizationChallengeRequest.initial(
            clientID: "files-app", scope: "openid", codeChallenge: verifier.challenge(), username: "demo@example.com",
            password: "p&ss word")
        #expect(request.form.encoded == "response_type=code&client_id=files-app&scope=openid"
            + "&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256"
            + "&username=demo%40example.com&password=p%26ss%20word")
    }

    /// §5.3.1: a later step names its `auth_session`; it is not a new authorization request, so no `response_type`.
    @Test func aStepCarriesItsAuthSessionAndNoAuthorizationRequest() {
        let form = AuthorizationChallengeRequest.step(clientID: "files-app", authSession: "s3ss", password: "pw").form
        #expect(form["auth_session"] == "s3ss")
        #expect(form["password"] == "pw")
        #expect(form["response_type"] == nil)
        #expect(form["code_challenge"] == nil)
        #expect(Set(form.map(\.name)).isSubset(of: Set(["client_id"] + AuthorizationChallengeRequest.StepName.all)))
    }
}
