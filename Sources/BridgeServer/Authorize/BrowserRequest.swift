import BridgeHTTP
import HTTPTypes
import SignInProtocol

/// What a browser-facing step (authorize, the interaction pages) reads from a request, read by its route: the
/// method, the query or the posted form, the few header values used, the browser's cookies, the path's ids.
struct BrowserRequest: Sendable {
    var method: HTTPRequest.Method
    /// The raw query, undecoded (the authorize request decodes it with its own limits).
    var query: String? = nil
    /// A `POST`'s form, or why it could not be read; nil for a request without one.
    var form: Result<FormParameters, RequestBodyError>? = nil
    var acceptLanguage: String? = nil
    var browserSecret: String? = nil
    var sessionSecret: String? = nil
    /// The caller's address as `ClientAddress` resolved it (only the sign-in post reads it, for its throttle).
    var clientAddress: String? = nil
    /// `{id}` in `/oauth2/interaction/{id}`.
    var interactionID: String? = nil
    /// `{upstream}` in `/oauth2/interaction/{id}/upstream/{upstream}`.
    var upstream: String? = nil

    /// The page language when nothing better is known (before the authorize request's `rs` or the parked request's).
    var fallbackLanguage: PageLanguage { PageLanguage.negotiate(culture: nil, acceptLanguage: acceptLanguage) }

    /// The query's `sign_in=here`: the interaction page shows the sign-in form even where the request waits for the
    /// host's app (`InteractionState.signInHere`).
    var asksToSignInHere: Bool {
        (try? FormParameters.decode(query ?? ""))?["sign_in"] == BrowserRequest.signInHere
    }

    static let signInHere = "here"

    /// The posted form when it could be read.
    var usableForm: FormParameters? { try? form?.get() }
}

/// The sentence an error page says to the person (`PageText` holds it in each language).
enum PageMessage: Sendable, Equatable {
    case errorLead, expired, formExpired, otherBrowser

    func text(_ text: PageText) -> String {
        switch self {
        case .errorLead: text.errorLead
        case .expired: text.expired
        case .formExpired: text.formExpired
        case .otherBrowser: text.otherBrowser
        }
    }
}
