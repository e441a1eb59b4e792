import SignInProtocol

/// Vipps/MobilePay Login "Simple Login" (`requested_flow=app_to_app_v2`): PKCE is required, because the host's app
/// sends the code straight to the merchant's redirect URI with no browser session to tie it to; a v2 request
/// without `code_challenge` is refused, even for a confidential merchant.
struct SimpleLoginPKCECheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "apptoapp.v2-pkce-required", group: .apptoapp, level: .must, source: SourceCitation(
            title: "Vipps MobilePay Login API, Login from a mobile app (app_to_app_v2: PKCE Required)",
            url: "https://developer.vippsmobilepay.com/docs/APIs/login-api/api-guide/app-integration-v2"),
        summary: "requested_flow=app_to_app_v2 is accepted with an S256 code_challenge and refused without one")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let merchant = try session.options.required(.simpleLoginClient)
        let endpoints = try await session.endpoints().orSkip()
        func request(withPKCE: Bool) async throws(CheckSkipped) -> AppToAppProbe.Answer {
            let state = AuthorizeRequestBuilder.newState()
            var fields = [
                ("client_id", merchant.id), ("response_type", "code"), ("redirect_uri", merchant.redirectURI), ("state", state),
                ("scope", "openid"), ("nonce", "conform-" + state), ("requested_flow", "app_to_app_v2"),
            ]
            if withPKCE {
                fields += [("code_challenge", PKCE.Verifier.random().challenge(method: .s256).value), ("code_challenge_method", "S256")]
            }
            return try await AppToAppProbe.send(fields, state: state, redirectURI: merchant.redirectURI, to: endpoints, in: session)
        }
        if let refusal = try await request(withPKCE: true).refusal {
            return .skip("the host does not accept requested_flow=app_to_app_v2 for this client (\(refusal))")
        }
        let without = try await request(withPKCE: false)
        return without.refusal.map { .pass("without PKCE: refused (\($0))") }
            ?? .fail("requested_flow=app_to_app_v2 without code_challenge was accepted (\(without.response.status))")
    }
}
