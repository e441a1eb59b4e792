import BridgeStore
import SignInProtocol

/// RFC 7636 §4.6 through `PKCE.verify`: a missing, malformed or wrong `code_verifier` is `invalid_grant`, and so is
/// a verifier for a code issued without a challenge (PKCE downgrade, RFC 9700 §4.8.2). A public client's code must
/// carry a challenge (RFC 9700 §2.1.1), whatever the authorize endpoint let through.
struct CheckPKCE {
    static func check(_ code: AuthorizationCodeRecord, verifier: String?, client: AuthenticatedClient) throws(OAuthError) {
        let challenge: PKCE.Challenge?
        if let value = code.codeChallenge {
            guard let method = PKCE.Method(rawValue: code.codeChallengeMethod ?? PKCE.Method.plain.rawValue),
                let parsed = try? PKCE.Challenge(value: value, method: method)
            else { throw OAuthError(.invalidGrant, description: "the code's code_challenge is unusable") }
            challenge = parsed
        } else {
            challenge = nil
        }
        if challenge == nil, client.client.public, verifier == nil {
            throw OAuthError(.invalidGrant, description: "a public client's code must have been issued with code_challenge")
        }
        if case .rejected(let failure) = PKCE.verify(verifier: verifier, against: challenge) {
            throw failure.oauthError
        }
    }
}
