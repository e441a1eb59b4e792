import SignInProtocol

/// What your app does to sign the user in for Office and get an authorization code for Office's client.
///
/// This is the one piece you write yourself: show your own sign-in or "Allow Office?" screen, then ask *your*
/// backend for an authorization code issued to Office's `client_id` (never hand Office a token your app holds).
/// Your backend's token endpoint later redeems that code for Office, server to server.
protocol AccountSignIn: Sendable {
    func signIn(for request: OfficeAuthorizeQuery, expectedUserId: String?) async throws(SignInRefusal) -> SignedIn
}

/// A successful sign-in, as your backend reports it.
struct SignedIn: Sendable {
    /// The authorization code for Office's client (single use, short lived: RFC 6749 §4.1.2).
    var code: String
    /// Optional `tk`: a token endpoint Office should use for this grant instead of `tokenIssuance_uri`.
    var tokenEndpoint: String?
    /// Optional `sc`: a session context Office sends back in `X-WOPI-SessionContext`.
    var sessionContext: String?
    /// Who signed in; Android Office compares it with the `UserId` it asked for.
    var userId: String
}

/// Why no code was issued; each maps to the RFC 6749 §4.1.2.1 error Office receives.
enum SignInRefusal: Error, Sendable {
    /// The user cancelled or declined to let Office in.
    case userCancelled
    /// The account may not use Office (policy, licence, …).
    case notAllowed(String)
    /// Your backend could not be reached.
    case temporarilyUnavailable

    var oauthError: OAuthError {
        switch self {
        case .userCancelled: OAuthError(.accessDenied, description: "The user cancelled sign-in")
        case .notAllowed(let reason): OAuthError(.accessDenied, description: reason)
        case .temporarilyUnavailable: OAuthError(.temporarilyUnavailable, description: "Sign-in service unavailable, try again")
        }
    }
}
