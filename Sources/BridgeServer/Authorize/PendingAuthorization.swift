import BridgeStore
import Foundation
import SignInProtocol

/// The validated authorize request as kept server side between the authorize endpoint and the final redirect
/// (the payload of a `PendingAuthorizationRecord`): nothing here ever round-trips through the browser.
struct PendingAuthorization: Sendable, Codable, Hashable {
    var clientID: String
    var redirectURI: String
    var request: AuthorizationRequest
    /// Space-separated scopes the user is asked to grant.
    var scope: String
    var codeChallenge: String?
    var codeChallengeMethod: String?
    var language: PageLanguage
    /// `prompt` values and `max_age` (`CheckPrompt`); optional so that requests stored before them still decode.
    var prompt: [String]?
    var maxAge: Int?

    init(_ draft: AuthorizationDraft, language: PageLanguage) {
        clientID = draft.client.id
        redirectURI = draft.redirectURI
        request = draft.request
        scope = draft.grantedScope
        codeChallenge = draft.pkce?.value
        codeChallengeMethod = draft.pkce?.method.rawValue
        self.language = language
        prompt = draft.prompt.isEmpty ? nil : draft.prompt.sorted()
        maxAge = draft.maxAge
    }

    /// `prompt=none`: answer with a code or an error, never with a page.
    var showsNoPages: Bool { prompt?.contains("none") ?? false }
    /// `prompt=consent`: ask again even if the user agreed before (first-party clients included).
    var asksConsentAgain: Bool { prompt?.contains("consent") ?? false }

    /// The earliest sign-in a browser session may have to count for this request: one made after the request began
    /// (`prompt=login` or `select_account`), and no older than `max_age` seconds. Nil: any active session counts.
    func earliestSignIn(requestedAt: Date, now: Date) -> Date? {
        var earliest: Date?
        if let prompt, prompt.contains("login") || prompt.contains("select_account") { earliest = requestedAt }
        if let maxAge {
            let bound = now.addingTimeInterval(-TimeInterval(maxAge))
            earliest = max(earliest ?? bound, bound)
        }
        return earliest
    }

    var scopes: [String] { scope.split(separator: " ").map(String.init) }

    func encoded() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }

    static func decode(_ payload: String) throws -> PendingAuthorization {
        try JSONDecoder().decode(PendingAuthorization.self, from: Data(payload.utf8))
    }
}
