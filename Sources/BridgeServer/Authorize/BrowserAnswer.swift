import BridgeHTTP
import HTTPTypes
import SignInProtocol

/// What a browser-facing step answers, as a value: a page, a redirect, what a step decided the parked request
/// needs, with the cookies to set. `InteractionRenderer.response(_:method:logger:)` is the one place it becomes
/// a response.
struct BrowserAnswer: Sendable {
    enum Kind: Sendable {
        /// An error page: a sentence for the person, and the OAuth error for the developer, if any.
        case errorPage(PageLanguage, status: HTTPResponse.Status, message: PageMessage, oauthError: OAuthError? = nil)
        /// 302 (303 after a post) to `location`.
        case redirect(String)
        /// What the interaction's steps decided the parked request needs.
        case need(InteractionNeed, ParkedInteraction)
    }

    /// A cookie the answer sets (`BrowserCookies` writes its attributes).
    enum SetCookie: Sendable, Equatable {
        case browser(String)
        case session(String)
    }

    var kind: Kind
    var cookies: [SetCookie] = []

    static func errorPage(
        _ language: PageLanguage, status: HTTPResponse.Status, message: PageMessage, oauthError: OAuthError? = nil
    ) -> BrowserAnswer {
        BrowserAnswer(kind: .errorPage(language, status: status, message: message, oauthError: oauthError))
    }

    static func redirect(_ location: String) -> BrowserAnswer { BrowserAnswer(kind: .redirect(location)) }

    /// The page for a posted body that could not be read, naming what was wrong (never the body): 413 for one over
    /// the limit (RFC 9110 §15.5.14), else 400.
    static func unreadableForm(_ error: RequestBodyError, language: PageLanguage, message: PageMessage) -> BrowserAnswer {
        let status: HTTPResponse.Status = if case .tooLarge = error { .contentTooLarge } else { .badRequest }
        return errorPage(language, status: status, message: message, oauthError: error.oauthError)
    }
}
