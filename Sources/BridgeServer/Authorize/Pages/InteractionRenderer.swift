import Hummingbird
import Logging
import SignInProtocol

/// The one place a `BrowserAnswer` and an interaction's need become a response: the error pages, the sign-in,
/// consent and app-to-app pages, the redirect to an upstream provider, the final redirect with the code or an
/// error, the upstream provider's error pages, and the cookies an answer sets. Steps and endpoints decide, this
/// draws, over `PageRenderer` and `CodeIssuance`.
struct InteractionRenderer: Sendable {
    let pages: SignInPages
    let completion: CodeIssuance

    /// The response for `answer`; `method` is the request's, which picks 302 or 303 for redirects.
    func response(_ answer: BrowserAnswer, method: HTTPRequest.Method, logger: Logger) -> Response {
        var response: Response
        switch answer.kind {
        case .errorPage(let language, let status, let message, let oauthError):
            response = pages.pages.error(language, status: status, message: message.text, oauthError: oauthError)
        case .redirect(let location):
            response = BrowserNavigation.redirect(to: location, after: method)
        case .need(let need, let parked):
            response = self.response(need, for: parked, method: method, logger: logger)
        }
        for cookie in answer.cookies {
            switch cookie {
            case .browser(let value): response.setCookie(pages.cookies.browser(value))
            case .session(let value): response.setCookie(pages.cookies.session(value))
            }
        }
        return response
    }

    /// The response for `need` on the parked request `parked`; `method` picks 302 or 303 for redirects.
    func response(
        _ need: InteractionNeed, for parked: ParkedInteraction, method: HTTPRequest.Method, logger: Logger
    ) -> Response {
        let pages = self.pages.pages
        let language = parked.pending.language
        switch need {
        case .issueCode(let code, let grant):
            let location = completion.redirect(
                code: code, grant: grant, pending: parked.pending, client: parked.client, logger: logger)
            return BrowserNavigation.redirect(to: location, after: method)
        case .refuse(let error):
            return BrowserNavigation.redirect(to: completion.refuse(parked.pending, error, logger: logger), after: method)
        case .signIn(let retry):
            return signIn(parked, retry: retry)
        case .consent(let user):
            return pages.consent(
                .init(
                    language: language, clientName: parked.client.displayName,
                    userName: user.friendlyName ?? user.signInName, scopes: parked.pending.scopes,
                    action: parked.actionPrefix + "/consent", csrfToken: parked.csrfToken, formTarget: parked.formTarget))
        case .waitForHostApp(let deepLink, _):
            return pages.parked(
                .init(
                    language: language, clientName: parked.client.displayName, deepLink: deepLink,
                    action: parked.actionPrefix + "/signin", csrfToken: parked.csrfToken, formTarget: parked.formTarget,
                    returnsDirectly: parked.pending.isSimpleLogin))
        case .upstream(let location):
            return BrowserNavigation.redirect(to: location, after: method)
        case .upstreamProblem(let problem, let name):
            return upstreamProblem(problem, providerName: name, language: language)
        case .expired:
            return pages.error(language, status: .badRequest, message: \.expired)
        }
    }

    /// The password form, with "Continue with …" for each upstream provider; after a failed attempt the name stays
    /// filled in, and a throttled one is 429 with `Retry-After` (RFC 6585 §4).
    func signIn(_ parked: ParkedInteraction, retry: SignInRetry?) -> Response {
        let language = parked.pending.language
        var error: String?
        var status = HTTPResponse.Status.ok
        var retryAfter: Int?
        switch retry?.problem {
        case nil: break
        case .wrongCredentials:
            error = PageText.for(language).wrongCredentials
        case .throttled(let seconds):
            let minutes = String(max(1, (seconds + 59) / 60))
            error = PageText.for(language).throttled.filling("minutes", with: minutes)
            status = .tooManyRequests
            retryAfter = seconds
        }
        var response = pages.pages.signIn(
            .init(
                language: language, clientName: parked.client.displayName, action: parked.actionPrefix + "/signin",
                csrfToken: parked.csrfToken, userName: retry?.userName ?? "", error: error, formTarget: parked.formTarget,
                upstreams: pages.upstreamLinks(interactionID: parked.id)),
            status: status)
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }

    /// A page about an upstream provider, its name filled in: refused or failed answers are 400 or 502, an outage
    /// is 503 with `Retry-After` (RFC 9110 §15.6.4) and "try again later".
    func upstreamProblem(_ problem: UpstreamProblem, providerName name: String, language: PageLanguage) -> Response {
        let pages = self.pages.pages
        switch problem {
        case .refused:
            return pages.upstreamError(language, status: .badRequest, name: name, message: \.upstreamRefused)
        case .cancelled:
            return pages.upstreamError(language, status: .badRequest, name: name, message: \.upstreamCancelled)
        case .failed(let failure) where failure.isOutage:
            var response = pages.upstreamError(language, status: .serviceUnavailable, name: name, message: \.upstreamDown)
            response.headers[.retryAfter] = "30"
            return response
        case .failed:
            return pages.upstreamError(language, status: .badGateway, name: name, message: \.upstreamRefused)
        }
    }
}
