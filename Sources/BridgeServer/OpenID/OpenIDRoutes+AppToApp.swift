import BridgeHTTP
import Foundation
import Hummingbird
import Logging
import SignInProtocol

extension OpenIDRoutes {
    /// The app-to-app provider endpoints (`AppToAppEndpoints`): the route reads the request into the endpoint's input
    /// value and renders its answer; bearer refusals are RFC 6750 §3 challenges, the browser's answers pages.
    func registerAppToApp(on router: Router<BridgeRequestContext>) {
        router.get(RouterPath(AppToAppEndpoints.detailsPath)) { request, _ in
            let input = AppToAppDetailsRequest(
                authorization: request.headers[.authorization], reference: Self.query(of: request)["reference"])
            do throws(BearerRefusal) {
                return OAuthHTTPResponse.json(Array(try await self.appToApp.details(input).json.utf8))
            } catch {
                return self.challenge.response(error)
            }
        }
        router.post(RouterPath(AppToAppEndpoints.decisionPath)) { request, context in
            let body: Result<String, RequestBodyError>
            do throws(RequestBodyError) {
                body = .success(try await self.bodies.text(request))
            } catch {
                body = .failure(error)
            }
            let input = AppToAppDecisionRequest(authorization: request.headers[.authorization], body: body)
            do throws(BearerRefusal) {
                return OAuthHTTPResponse.json(Array(try await self.appToApp.decide(input, logger: context.logger).json.utf8))
            } catch {
                return self.challenge.response(error)
            }
        }
        router.get(RouterPath(AppToAppEndpoints.resumePath)) { request, context in
            let input = AppToAppResumeRequest(
                token: Self.query(of: request)["token"], browserSecret: self.signInPages.cookies.browserSecret(in: request))
            do throws(AppToAppResumeRefusal) {
                let resumed = try await self.appToApp.resume(input, logger: context.logger)
                var response = BrowserNavigation.redirect(
                    to: BrowserNavigation.interactionPath(resumed.interactionID), after: .get)
                response.setCookie(self.signInPages.cookies.session(resumed.session))
                return response
            } catch {
                return self.resumePage(error, request, context)
            }
        }
        router.get(RouterPath(AppToAppEndpoints.landingPath)) { request, context in
            let reference = Self.query(of: request)["reference"]
            do throws(AppToAppResumeRefusal) {
                if let signIn = try await self.appToApp.landing(reference: reference) {
                    return BrowserNavigation.redirect(to: signIn, after: .get)
                }
            } catch {
                return self.resumePage(error, request, context)
            }
            return self.guarded.pages.notice(Self.language(of: request), heading: \.parkedTitle, message: \.appToAppLanding)
        }
    }

    /// The page for a `resume_uri` that does not continue; a store outage is the one outage page (`StoreOutagePage`).
    private func resumePage(
        _ refusal: AppToAppResumeRefusal, _ request: Request, _ context: BridgeRequestContext
    ) -> Response {
        let pages = guarded.pages
        let language = Self.language(of: request)
        switch refusal {
        case .expired: return pages.error(language, status: .badRequest, message: \.expired)
        case .otherBrowser: return pages.error(language, status: .forbidden, message: \.otherBrowser)
        case .alreadyUsed: return pages.error(language, status: .badRequest, message: \.resumeUsed)
        case .storeUnavailable:
            context.logger.error("sign-in step failed in the store", metadata: ["path": "\(request.uri.path)"])
            return guarded.outage(request)
        case .serverFault:
            // Logged with its type where it was classified (`callStore`); the body says nothing of it.
            return Response(status: .internalServerError)
        }
    }

    static func query(of request: Request) -> FormParameters {
        (try? FormParameters.decode(request.uri.query ?? "")) ?? FormParameters()
    }

    static func language(of request: Request) -> PageLanguage {
        PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage])
    }
}
