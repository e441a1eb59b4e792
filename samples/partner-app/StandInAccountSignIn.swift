import SignInProtocol

/// STAND-IN for your app's own sign-in, so that this example runs from a shell. Replace it.
///
/// It "signs in" a fixed demo user without any screen and makes up a random code. A real implementation shows
/// UI, authenticates the user, and asks your backend (over TLS, with the user's session) to issue an
/// authorization code for `request.clientID`; see `AccountSignIn`.
struct StandInAccountSignIn: AccountSignIn {
    /// Simulates the user tapping "Cancel", to see the error form of the answer.
    var userCancels = false
    var userId = "demo-user@contoso.example"

    func signIn(for request: OfficeAuthorizeQuery, expectedUserId: String?) async throws(SignInRefusal) -> SignedIn {
        if userCancels { throw .userCancelled }
        if let expectedUserId, expectedUserId != userId {
            throw .notAllowed("Signed in as a different user than Office asked for")
        }
        // A PKCE verifier is simply 32 random bytes in base64url: handy as a made-up, unguessable code.
        let code = PKCE.Verifier.random().value
        return SignedIn(code: code, tokenEndpoint: nil, sessionContext: nil, userId: userId)
    }
}
