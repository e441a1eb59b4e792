import SignInProtocol

/// Where a WOPI request carries its access token: the `access_token` query parameter, which every WOPI operation
/// takes (Microsoft's "Access tokens" page for WOPI), and `Authorization: Bearer`, which WOPI clients send too
/// (the "Standard WOPI request and response headers" page). Office sends both with one token, so unlike RFC 6750 §2
/// two placements are accepted when they agree.
enum WopiTokenPresentation: Sendable, Hashable {
    case none
    case token(String)
    /// Two different tokens (two `access_token` values, or a query and a header that disagree).
    case conflicting

    init(queryValues: [String], authorization: String?, maxHeaderBytes: Int) {
        var tokens = queryValues.filter { !$0.isEmpty }
        if let header = BearerCredential(authorization: authorization, maxBytes: maxHeaderBytes) { tokens.append(header.token) }
        guard let first = tokens.first else {
            self = .none
            return
        }
        self = tokens.allSatisfy { $0 == first } ? .token(first) : .conflicting
    }
}
