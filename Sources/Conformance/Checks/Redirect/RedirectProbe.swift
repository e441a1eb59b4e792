/// An attacker's authorize request for Office's client with a redirect URI of their own: the host must show an
/// error page and never send the browser (with a code or an error) to that URI (RFC 6749 §4.1.2.1).
enum RedirectProbe {
    static func judge(_ attackerURI: String, in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let office = try session.options.required(.office)
        let endpoints = try await session.endpoints().orSkip()
        let request = AuthorizeRequestBuilder.office(
            authorizationURI: endpoints.authorization, clientID: office.id, redirectURI: attackerURI)
        switch await SignInDriver(session: session, party: .attacker).signIn(
            request, redirectURI: attackerURI, alsoStopAt: [office.redirectURI], person: false)
        {
        case .success(let outcome) where !URLParts.isRedirect(outcome.redirectedTo, to: attackerURI):
            return .pass("redirected to the registered URI, not to \(attackerURI)")
        case .success(let outcome):
            let what = outcome.code != nil ? "with a code" : "with \(outcome.parameters["error"].map { "error=" + $0 } ?? "no code")"
            return .fail("the browser was redirected to \(attackerURI) \(what)")
        case .failure(let failure) where failure.unanswered:
            return .skip(failure.reason)
        case .failure(let failure) where failure.stoppedAtSignIn:
            return .skip("the host asks for the sign-in before checking redirect_uri; give --username and --password")
        case .failure(let failure):
            return .pass("not redirected to \(attackerURI) (\(failure.reason))")
        }
    }
}
