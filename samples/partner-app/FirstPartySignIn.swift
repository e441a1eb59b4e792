import SignInProtocol

/// The host's own app signing its user in natively (OAuth 2.0 for First-Party Applications,
/// draft-ietf-oauth-first-party-apps-04): it posts to the authorization challenge endpoint until it gets a code,
/// continues in the browser when the server says `redirect_to_web`, and redeems the code with its PKCE verifier.
/// Only value types: the app sends each form with its HTTP client and hands each JSON answer back here.
struct FirstPartySignIn {
    let clientID: String
    let scope: String

    /// What the app does after an answer.
    enum Next: Equatable {
        /// POST this form to the authorization challenge endpoint (a further step, with the new `auth_session`).
        case challenge(FormParameters)
        /// POST this form to the token endpoint: the code and the verifier, no `redirect_uri` (draft §6).
        case redeem(FormParameters)
        /// Open this URL in the system browser (ASWebAuthenticationSession, Custom Tabs) and finish there (§5.2.2.1.1).
        case openBrowser(String)
        /// Stop and tell the user (a wrong password, a throttle, a refusal).
        case stop(OAuthError)
    }

    /// The first request, with whatever the user typed so far.
    func start(verifier: PKCE.Verifier, username: String, password: String?) -> FormParameters {
        AuthorizationChallengeRequest.initial(
            clientID: clientID, scope: scope, codeChallenge: verifier.challenge(), username: username, password: password
        ).form
    }

    /// The next move for the endpoint's JSON answer; `password` is asked of the user when the server needs it.
    func next(
        after answer: AuthorizationChallengeResponse, verifier: PKCE.Verifier, authorizationEndpoint: String, password: String?
    ) -> Next {
        switch answer {
        case .code(let code):
            let request = TokenRequest(
                grant: .authorizationCode(code: code, redirectURI: nil, codeVerifier: verifier.value),
                client: ClientAuthentication(clientID: clientID))
            return .redeem(request.form)
        case .error(let refusal):
            switch refusal.error.code {
            case .insufficientAuthorization:
                guard let session = refusal.authSession, let password else { return .stop(refusal.error) }
                return .challenge(AuthorizationChallengeRequest.step(clientID: clientID, authSession: session, password: password).form)
            case .redirectToWeb:
                // RFC 9126 §4: the browser continues the pushed request by client_id and request_uri alone.
                guard let requestURI = refusal.requestURI else { return .stop(refusal.error) }
                let query = FormParameters([.init("client_id", clientID), .init("request_uri", requestURI)])
                return .openBrowser(query.appended(to: authorizationEndpoint))
            default:
                return .stop(refusal.error)
            }
        }
    }
}
