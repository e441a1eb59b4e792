import BridgeStore
import Foundation
import Hummingbird
import SignInProtocol

/// `GET /auth/session/{code}`: a web view or browser opens a `type=session` exchange code (Schibsted SPiD login docs)
/// and, once, gets the sign-in pages' session cookie for the code's user and a redirect to the redirect URI the code
/// was issued for (registered for the target client). A used, expired or unknown code gets the "expired" page and
/// no cookie.
struct SessionCodeEndpoint: Sendable {
    static let pathPrefix = "/auth/session"
    static let path = pathPrefix + "/{code}"

    let environment: AuthorizeEnvironment

    func open(_ request: Request, code presented: String?, _ context: BridgeRequestContext) async throws -> Response {
        let language = PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage])
        guard let code = BrowserCookies.secret(presented) else {
            return environment.pages.error(language, status: .badRequest, message: \.expired)
        }
        let now = environment.now()
        let session = SecretToken()
        let lifetime = TimeInterval(environment.configuration.signIn.sessionLifetimeSeconds)
        let opening = try await environment.store.openSessionCode(
            TokenDigest(of: code), session: session.digest, sessionExpiresAt: now.addingTimeInterval(lifetime), at: now)
        switch opening {
        case .opened(let record):
            context.logger.info(
                "session exchange code opened", metadata: ["client": .string(record.clientID), "user": .string(record.userID)])
            var response = AuthorizeEnvironment.redirect(to: record.redirectURI, after: .get)
            response.setCookie(environment.cookies.session(session.value))
            return response
        case .replayed:
            context.logger.notice("session exchange code replayed")
            return environment.pages.error(language, status: .badRequest, message: \.resumeUsed)
        case .expired, .unknown:
            return environment.pages.error(language, status: .badRequest, message: \.expired)
        }
    }
}
