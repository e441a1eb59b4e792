import SignInProtocol

/// Runs the authorize checks in order. The first two decide whether the redirect URI can be trusted: until then
/// every error is shown on a page (RFC 6749 §4.1.2.1, never an open redirect); after, errors go back to the client
/// with `error`, `error_description` and `state`.
struct AuthorizePipeline: Sendable {
    enum Decision: Sendable {
        /// Show this error on a page (status from the error); nothing is redirected.
        case showError(OAuthError)
        /// Redirect to this URL (an error response on the registered redirect URI).
        case redirectError(location: String, OAuthError)
        /// Every check passed: continue with sign-in and consent.
        case accepted(AuthorizationDraft)
    }

    let checkClient: CheckClient
    /// RFC 9207 §2: `iss` on every redirected error too.
    let issuer: String
    let checkRedirectURI = CheckRedirectURI()
    let checkParameters = CheckParameters()
    let checks: [any AuthorizeCheck]

    init(configuration: BridgeConfiguration) {
        checkClient = CheckClient(clients: configuration.clients)
        issuer = configuration.issuer
        checks = [
            CheckResponseType(), CheckState(), CheckScope(), CheckPKCEChallenge(allowPlain: configuration.authorize.allowPlainPKCE),
            CheckOfficeParameters(), CheckPrompt(), CheckNonce(),
            CheckAppToApp(),
        ]
    }

    func evaluate(_ parameters: FormParameters) -> Decision {
        let client: BridgeConfiguration.Client
        let redirectURI: String
        do {
            client = try checkClient.client(in: parameters)
            redirectURI = try checkRedirectURI.redirectURI(for: client, in: parameters)
        } catch {
            return .showError(error)
        }
        func redirect(_ error: OAuthError, state: String?) -> Decision {
            .redirectError(
                location: AuthorizationResponse.failure(error, state: state).issued(by: issuer).redirectURL(to: redirectURI),
                error)
        }
        let request: AuthorizationRequest
        do {
            request = try checkParameters.request(from: parameters)
        } catch {
            return redirect(error, state: CheckParameters.echoableState(in: parameters))
        }
        var draft = AuthorizationDraft(client: client, redirectURI: redirectURI, request: request)
        for check in checks {
            do {
                try check.check(&draft)
            } catch {
                // An over-long state is not echoed: it is what was wrong.
                return redirect(error, state: check is CheckState ? nil : request.state)
            }
        }
        return .accepted(draft)
    }
}
