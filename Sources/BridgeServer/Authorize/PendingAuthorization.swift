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
    /// OpenID Connect `nonce` (`CheckNonce`); optional for the same reason.
    var nonce: String?
    /// `app_callback_uri` of a `requested_flow=app_to_app` request (`CheckAppToApp`).
    var appCallbackURI: String?
    /// DPoP `dpop_jkt` (RFC 9449 §10): the code is redeemed only with a proof by the key of this thumbprint.
    var dpopKeyThumbprint: String?

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
        nonce = draft.nonce
        appCallbackURI = draft.appCallbackURI
        dpopKeyThumbprint = draft.request.additionalParameters["dpop_jkt"].nonEmpty
    }

    /// `requested_flow=app_to_app_v2` (Vipps Simple Login): the host's app approves and gets the code for the
    /// client's `redirect_uri` itself; the browser only parks the request.
    var isSimpleLogin: Bool { request.requestedFlow == SimpleLoginAuthorization.requestedFlow }
    /// Either app-to-app flow: without a session here, the request parks for the host's app (`AppToAppWaitStep`).
    var waitsForHostApp: Bool { appCallbackURI != nil || isSimpleLogin }

    /// `prompt=none`: answer with a code or an error, never with a page.
    var showsNoPages: Bool { prompt?.contains("none") ?? false }
    /// `prompt=consent`: ask again even if the user agreed before (first-party clients included).
    var asksConsentAgain: Bool { prompt?.contains("consent") ?? false }

    /// What the store needs to finish this request on its own (`AuthorizationDecision`): the code's bindings, the
    /// grant's session context (minted now for clients that use Office's `sc`), and the sign-in and consent rules:
    /// `prompt=login`/`select_account` count only a sign-in after the request began, `max_age` bounds its age,
    /// `prompt=consent` asks again (first-party clients included), and first-party clients are otherwise never asked.
    func terms(client: BridgeConfiguration.Client, requestedAt: Date) -> AuthorizationTerms {
        let consent: AuthorizationTerms.Consent =
            asksConsentAgain ? .always : client.firstParty ? .notNeeded : .remembered
        let freshSignIn = prompt.map { $0.contains("login") || $0.contains("select_account") } ?? false
        return AuthorizationTerms(
            redirectURI: redirectURI, scope: scope, codeChallenge: codeChallenge, codeChallengeMethod: codeChallengeMethod,
            sessionContext: client.sessionContext ? CodeIssuance.newSessionContext() : nil, consent: consent,
            signInAfter: freshSignIn ? requestedAt : nil, maxAgeSeconds: maxAge, nonce: nonce,
            dpopKeyThumbprint: dpopKeyThumbprint)
    }

    var scopes: [String] { scope.split(separator: " ").map(String.init) }

    func encoded() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }

    static func decode(_ payload: String) throws -> PendingAuthorization {
        try JSONDecoder().decode(PendingAuthorization.self, from: Data(payload.utf8))
    }
}
