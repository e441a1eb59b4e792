/// RFC 9126 §4: the client sends only `client_id` and the `request_uri`; the server signs the user in for the pushed
/// request and answers at its redirect URI with a code the client redeems as usual.
struct PARAuthorizeCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "par.authorize", group: .par, level: .must, source: .rfc(9126, "§4", "Authorization Request"),
        summary: "Authorize with client_id and the pushed request_uri signs in, redirects with a code and the pushed state, and the code redeems")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try await PushedAuthorization.target(in: session)
        let (requestURI, state) = try await PushedAuthorization.officeRequest(in: session)
        let outcome: SignInOutcome
        switch try await PushedAuthorization.authorize(target, requestURI: requestURI, clientID: target.office.id, state: state, in: session) {
        case .failure(let failure): return .fail("the pushed request did not sign in: \(failure.reason)")
        case .success(let found): outcome = found
        }
        guard URLParts.isRedirect(outcome.redirectedTo, to: target.office.redirectURI), let code = outcome.code else {
            return .fail("the pushed request ended at \(SecretMask.maskURL(outcome.redirectedTo)) without a code")
        }
        guard outcome.parameters["state"] == state else { return .fail("the redirect's state is not the pushed one") }
        let redeemed = try await session.redeemOfficeCode(code, signIn: outcome).orSkip()
        guard redeemed.response.status == 200, redeemed.accessToken != nil else {
            return .fail("the code from the pushed request redeemed with \(redeemed.summary)")
        }
        return .pass("code and state at the redirect URI; the code redeems")
    }
}
