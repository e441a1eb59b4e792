import SignInProtocol

/// `state` is echoed unchanged (RFC 6749 §4.1.2); it must fit in the redirect, so it has a size limit.
struct CheckState: AuthorizeCheck {
    static let maxBytes = 2048

    func check(_ draft: inout AuthorizationDraft) throws(OAuthError) {
        if let state = draft.request.state, state.utf8.count > Self.maxBytes {
            throw .invalidRequest("state is \(state.utf8.count) bytes, over the limit of \(Self.maxBytes)")
        }
    }
}
