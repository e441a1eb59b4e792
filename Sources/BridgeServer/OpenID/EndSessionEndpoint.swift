import BridgeStore
import Foundation
import SignInProtocol

/// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0 §2), GET and POST at `end_session_endpoint`.
/// `id_token_hint` must be one of our ID tokens; `post_logout_redirect_uri` must be registered exactly for the
/// client the hint (or `client_id`) names, else nothing happens and a page says so. On success the browser's
/// session cookie is cleared and the user's sessions end, then the browser goes to the registered URI with
/// `state`, or sees a "signed out" page. A hint with a Native SSO `sid` ends that device session too.
/// Without a valid `id_token_hint` a signed-in browser is asked first (§2: the OP "SHOULD ask the End-User whether
/// to log out"; §6: such requests "are a potential means of denial of service", so confirm "before acting upon
/// them"): a page whose form posts the same parameters back with `LogoutConfirmation`'s token for that browser,
/// and nothing ends until it is posted.
struct EndSessionEndpoint: Sendable {
    static let path = "/oauth2/logout"

    let configuration: BridgeConfiguration
    /// The browser's session, the user's sessions a logout ends, and a Native SSO device session.
    let store: any BrowserSessionStore & DeviceSSOStore
    let now: @Sendable () -> Date
    let idTokens: IDTokenIssuer

    /// What the route read: the parameters (query or form body), the browser's session cookie, and the
    /// confirmation form's `csrf_token` when the request is a POST (never read from a query, which logs and
    /// `Referer` keep).
    struct Input: Sendable {
        var parameters: FormParameters
        var sessionSecret: String?
        var confirmation: String? = nil
    }

    /// The parameters a confirmation page posts back: the request's own, as `decide` accepted them.
    static let carriedParameters = ["post_logout_redirect_uri", "state", "client_id", "ui_locales"]

    /// Decides, and on a logout ends the user's sessions (one store read, one store step). The route clears the
    /// cookie and draws the redirect or the page (`OpenIDRoutes+Sessions`). A browser whose cookie names no live
    /// session has nothing a logout could end, so it is not asked.
    func respond(_ input: Input) async throws -> Decision {
        let decision = await decide(input.parameters)
        guard case .logOut = decision else { return decision }
        let now = self.now()
        if let secret = input.sessionSecret,
            let session = try await callStore({ try await store.activeSession(TokenDigest(of: secret), at: now) })
        {
            if input.parameters["id_token_hint"].nonEmpty == nil,
                !LogoutConfirmation.confirms(input.confirmation, session: secret)
            {
                var carried = FormParameters()
                for name in Self.carriedParameters { carried.append(name, input.parameters[name].nonEmpty) }
                return .confirm(token: LogoutConfirmation.token(forSession: secret), parameters: carried)
            }
            try await callStore { try await store.endSessions(userID: session.userID, at: now) }
        }
        // Native SSO draft 07: an app logging out with an ID token of a device session ends that session, so its
        // device secret can no longer sign another app in.
        if let hint = input.parameters["id_token_hint"].nonEmpty, let sid = await idTokens.verifiedHint(hint)?.sid {
            try await callStore { try await store.endDeviceSession(sid: sid, at: now) }
        }
        return decision
    }

    enum Decision: Equatable, Sendable {
        case logOut(redirect: String?)
        /// Ask the user first: the confirmation form's token and the parameters it posts back.
        case confirm(token: String, parameters: FormParameters)
        case refuse(OAuthError)
    }

    /// The checks on the parameters alone, in the order the specification lists them.
    func decide(_ parameters: FormParameters) async -> Decision {
        for name in ["id_token_hint", "post_logout_redirect_uri", "state", "client_id"]
        where parameters.values(for: name).count > 1 {
            return .refuse(.invalidRequest("parameter '\(name)' appears more than once"))
        }
        var clientID = parameters["client_id"].nonEmpty
        if let hint = parameters["id_token_hint"].nonEmpty {
            guard let claims = await idTokens.verifiedHint(hint) else {
                return .refuse(.invalidRequest("id_token_hint is not an ID token this server issued"))
            }
            if let clientID, clientID != claims.aud {
                return .refuse(.invalidRequest("client_id does not match the id_token_hint's audience"))
            }
            clientID = claims.aud
        }
        guard let uri = parameters["post_logout_redirect_uri"].nonEmpty else { return .logOut(redirect: nil) }
        guard let clientID, let client = configuration.client(id: clientID) else {
            return .refuse(.invalidRequest("post_logout_redirect_uri needs id_token_hint or client_id"))
        }
        guard (client.postLogoutRedirectUris ?? []).contains(uri) else {
            return .refuse(.invalidRequest("post_logout_redirect_uri is not registered for client '\(client.id)'"))
        }
        var form = FormParameters()
        form.append("state", parameters["state"].nonEmpty)
        return .logOut(redirect: form.appended(to: uri))
    }
}
