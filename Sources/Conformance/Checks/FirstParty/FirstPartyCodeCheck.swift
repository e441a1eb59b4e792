/// Draft §5.2.1: enough information answers 200 with `authorization_code`, which the token endpoint redeems with the
/// request's PKCE verifier and no `redirect_uri` (draft §6).
struct FirstPartyCodeCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "firstparty.code", group: .firstparty, level: .must, source: FirstPartyApp.draft("§5.2.1", "Authorization Code Response"),
        summary: "A challenge request with the user's password answers 200 authorization_code, redeemed at the token endpoint")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try await FirstPartyApp.target(in: session)
        let (answer, verifier) = try await FirstPartyApp.passwordSignIn(in: session)
        guard let code = answer.code, !code.isEmpty else {
            return .fail("the challenge request answered \(answer.summary), not 200 with authorization_code")
        }
        let tokens = try await FirstPartyApp.redeem(code, verifier: verifier.value, target: target, in: session)
        guard tokens.response.status == 200, tokens.accessToken != nil else {
            return .fail("the code was not redeemed: the token endpoint answered \(tokens.summary)")
        }
        return .pass("200 authorization_code, redeemed for an access token")
    }
}
