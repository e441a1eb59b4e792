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

    init(_ draft: AuthorizationDraft, language: PageLanguage) {
        clientID = draft.client.id
        redirectURI = draft.redirectURI
        request = draft.request
        scope = draft.grantedScope
        codeChallenge = draft.pkce?.value
        codeChallengeMethod = draft.pkce?.method.rawValue
        self.language = language
    }

    var scopes: [String] { scope.split(separator: " ").map(String.init) }

    func encoded() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }

    static func decode(_ payload: String) throws -> PendingAuthorization {
        try JSONDecoder().decode(PendingAuthorization.self, from: Data(payload.utf8))
    }
}
