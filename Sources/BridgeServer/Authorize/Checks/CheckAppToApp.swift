import SignInProtocol

/// `requested_flow=app_to_app` (Vipps Login app-to-app docs): both `app_callback_uri` and `redirect_uri` are
/// required, and each must be registered for the client exactly (no normalisation: a trailing `/` or a
/// percent-encoding differs). Runs after the redirect URI is trusted, so its errors go back to the client.
struct CheckAppToApp: AuthorizeCheck {
    func check(_ draft: inout AuthorizationDraft) throws(OAuthError) {
        let parameters = draft.request
        guard let flow = parameters.requestedFlow.nonEmpty else {
            if parameters.appCallbackURI.nonEmpty != nil {
                throw .invalidRequest("app_callback_uri is only used with requested_flow=app_to_app")
            }
            return
        }
        if flow == SimpleLoginAuthorization.requestedFlow { return try checkSimpleLogin(draft) }
        guard flow == AppToAppAuthorization.requestedFlow else {
            throw .invalidRequest("requested_flow is not supported")
        }
        guard parameters.redirectURI.nonEmpty != nil else {
            throw .invalidRequest("requested_flow=app_to_app requires redirect_uri")
        }
        // The host's app sends the user back to the merchant with `state`; without one the merchant app cannot
        // tell its callback from a forged one.
        guard parameters.state.nonEmpty != nil else {
            throw .invalidRequest("requested_flow=app_to_app requires state")
        }
        guard let callback = parameters.appCallbackURI.nonEmpty else {
            throw .invalidRequest("requested_flow=app_to_app requires app_callback_uri")
        }
        guard (draft.client.appCallbackUris ?? []).contains(callback) else {
            throw .invalidRequest("app_callback_uri is not registered for client '\(draft.client.id)' (exact match)")
        }
        draft.appCallbackURI = callback
    }

    /// `requested_flow=app_to_app_v2` (Vipps Simple Login): the request's own rules are `SimpleLoginAuthorization`'s
    /// (state, S256 PKCE, an https redirect URI, no `app_callback_uri`); the client must be enabled (`appToAppV2`). Its
    /// redirect URI is already known to be registered, so these errors go back to it (RFC 6749 §4.1.2.1).
    private func checkSimpleLogin(_ draft: AuthorizationDraft) throws(OAuthError) {
        // A client that is not enabled learns nothing more than of any unknown flow.
        guard draft.client.appToAppV2 else { throw .invalidRequest("requested_flow is not supported") }
        do {
            _ = try SimpleLoginAuthorization(draft.request)
        } catch {
            throw error.oauthError
        }
    }
}
