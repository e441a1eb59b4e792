import SignInProtocol

/// Only the authorization code flow (RFC 9700 §2.1.2: no implicit grant), and only for clients allowed to use it.
struct CheckResponseType: AuthorizeCheck {
    func check(_ draft: inout AuthorizationDraft) throws(OAuthError) {
        guard draft.request.responseType == "code" else {
            throw OAuthError(
                .unsupportedResponseType, description: "response_type is not supported; use code")
        }
        guard draft.client.grants.contains(.authorizationCode) else {
            throw OAuthError(.unauthorizedClient, description: "this client may not use the authorization code grant")
        }
    }
}
