import BridgeStore
import Foundation
import Logging
import SignInProtocol

/// `GET /auth/session/{code}`: a web view or browser opens a `type=session` exchange code (Schibsted SPiD login docs)
/// and, once, gets the sign-in pages' session cookie for the code's user and a redirect to the redirect URI the code
/// was issued for (registered for the target client). A used, expired or unknown code gets the "expired" page and
/// no cookie. The route reads the code and draws the outcome (`OpenIDRoutes+Sessions`).
struct SessionCodeEndpoint: Sendable {
    static let pathPrefix = "/auth/session"
    static let path = pathPrefix + "/{code}"

    let environment: AuthorizeEnvironment

    enum Outcome: Sendable {
        /// The code was live: a browser session for its user, then its redirect URI.
        case opened(redirectURI: String, session: SecretToken)
        /// Opened before: a replay, logged.
        case replayed
        /// Malformed, unknown or expired.
        case refused
    }

    func open(code presented: String?, logger: Logger) async throws -> Outcome {
        guard let code = BrowserCookies.secret(presented) else { return .refused }
        let now = environment.now()
        let session = SecretToken()
        let lifetime = TimeInterval(environment.configuration.signIn.sessionLifetimeSeconds)
        let opening = try await callStore {
            try await environment.store.openSessionCode(
                TokenDigest(of: code), session: session.digest, sessionExpiresAt: now.addingTimeInterval(lifetime), at: now)
        }
        switch opening {
        case .opened(let record):
            logger.info(
                "session exchange code opened", metadata: ["client": .string(record.clientID), "user": .string(record.userID)])
            return .opened(redirectURI: record.redirectURI, session: session)
        case .replayed:
            logger.notice("session exchange code replayed")
            return .replayed
        case .expired, .unknown:
            return .refused
        }
    }
}
