import BridgeHTTP
import BridgeStore
import Foundation
import Hummingbird
import SignInProtocol

/// The providers' callback (`GET /auth/upstream/{upstream}/callback`), which also finishes the broker's logins
/// (`BrokerEndpoints`): reads the request into an `UpstreamCallback`, asks `UpstreamSignInService`, and draws the
/// outcome. Starting a login is the interaction's `UpstreamSignInStep` (`GET /oauth2/interaction/{id}/upstream/…`).
struct UpstreamSignInEndpoints: Sendable {
    let environment: AuthorizeEnvironment
    let pages: SignInPages
    let completion: CodeIssuance
    let service: UpstreamSignInService

    /// The provider sends the browser back here with `code` and `state` (or `error`).
    func callback(_ request: Request, _ context: BridgeRequestContext, broker: BrokerEndpoints) async throws -> Response {
        let language = PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage])
        let query = request.uri.queryParameters
        let callback = UpstreamCallback(
            upstream: context.parameters.get("upstream"), state: query["state"].map(String.init),
            code: query["code"].map(String.init), error: query["error"].map(String.init),
            browserSecret: pages.cookies.browserSecret(in: request))
        switch try await service.callback(callback, environment: environment, logger: context.logger) {
        case .unknownUpstream:
            return pages.pages.error(language, status: .notFound, message: \.expired)
        case .brokerLogin(let login, let sessionID, let session, let provider, let now):
            return try await broker.finish(
                login, sessionID: sessionID, session: session, provider: provider,
                error: query["error"].map(String.init), code: query["code"].map(String.init), at: now,
                logger: context.logger
            ).response(pages: pages.pages)
        case .otherBrowser:
            return pages.pages.error(language, status: .forbidden, message: \.otherBrowser)
        case .problem(let problem, let name):
            return InteractionRenderer(pages: pages, completion: completion)
                .upstreamProblem(problem, providerName: name, language: language)
        case .signedIn(let interactionID, let session):
            var response = BrowserNavigation.redirect(to: BrowserNavigation.interactionPath(interactionID), after: .get)
            response.setCookie(pages.cookies.session(session.value))
            return response
        }
    }
}
