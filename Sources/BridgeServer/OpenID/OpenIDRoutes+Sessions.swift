import BridgeHTTP
import Hummingbird
import SignInProtocol

/// The routes of RP-initiated logout and of session exchange codes: read the request into the endpoint's input,
/// draw its outcome as a page or a redirect with the session cookie set or cleared.
extension OpenIDRoutes {
    func registerSessions(on router: Router<BridgeRequestContext>) {
        for method in [HTTPRequest.Method.get, .post] {
            router.on(RouterPath(EndSessionEndpoint.path), method: method) { request, context in
                try await self.guarded.answer(request, context) { try await self.endSession(request) }
            }
        }
        router.get(RouterPath(SessionCodeEndpoint.path)) { request, context in
            try await self.guarded.answer(request, context) {
                let outcome = try await self.sessionCodes.open(code: context.parameters.get("code"), logger: context.logger)
                return self.sessionCodeResponse(outcome, language: Self.language(of: request))
            }
        }
    }

    func endSession(_ request: Request) async throws -> Response {
        let language = Self.language(of: request)
        let parameters: FormParameters
        if request.method == .post {
            do throws(RequestBodyError) {
                parameters = try await bodies.form(request)
            } catch {
                return signInPages.pages.error(language, status: .badRequest, message: \.logoutRefused, oauthError: error.oauthError)
            }
        } else {
            do {
                parameters = try FormParameters.decode(request.uri.query ?? "", limit: .default, what: "query")
            } catch {
                return signInPages.pages.error(
                    language, status: .badRequest, message: \.logoutRefused, oauthError: .invalidRequest("the query is malformed"))
            }
        }
        let input = EndSessionEndpoint.Input(
            parameters: parameters, sessionSecret: signInPages.cookies.sessionSecret(in: request),
            confirmation: request.method == .post ? parameters["csrf_token"] : nil)
        switch try await endSession.respond(input) {
        case .refuse(let error):
            return signInPages.pages.error(language, status: .badRequest, message: \.logoutRefused, oauthError: error)
        case .confirm(let token, let carried):
            return signInPages.pages.logoutConfirmation(
                PageRenderer.LogoutConfirmationPage(
                    language: language, action: EndSessionEndpoint.path, csrfToken: token,
                    fields: carried.pairs.map { ($0.name, $0.value) },
                    formTarget: carried["post_logout_redirect_uri"].flatMap(PageRenderer.formTarget(for:))))
        case .logOut(let redirect):
            var response =
                redirect.map { BrowserNavigation.redirect(to: $0, after: request.method) }
                ?? signInPages.pages.notice(language, heading: \.signedOutTitle, message: \.signedOut)
            response.setCookie(signInPages.cookies.endedSession())
            return response
        }
    }

    func sessionCodeResponse(_ outcome: SessionCodeEndpoint.Outcome, language: PageLanguage) -> Response {
        switch outcome {
        case .opened(let redirectURI, let session):
            var response = BrowserNavigation.redirect(to: redirectURI, after: .get)
            response.setCookie(signInPages.cookies.session(session.value))
            return response
        case .replayed:
            return signInPages.pages.error(language, status: .badRequest, message: \.resumeUsed)
        case .refused:
            return signInPages.pages.error(language, status: .badRequest, message: \.expired)
        }
    }
}
