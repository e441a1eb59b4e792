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

    /// Opens the code as a browser session.
    let store: any ExchangeStore
    let sessionLifetime: TimeInterval
    let now: @Sendable () -> Date

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
        let now = self.now()
        let session = SecretToken()
        let opening = try await callStore {
            try await store.openSessionCode(
                TokenDigest(of: code), session: session.digest, sessionExpiresAt: now.addingTimeInterval(sessionLifetime), at: now)
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
