import BridgeStore
import SignInProtocol

/// RFC 6749 §4.1.3 and RFC 9700 §2.1: `redirect_uri` must be the one of the authorization request, compared as
/// exact strings (no normalisation: `https://localhost` and `https://localhost/` differ). A mismatch is answered with
/// RFC 6749 §5.2's own `invalid_grant` sentence, the text app-to-app providers' documentation tells developers to expect.
struct CheckRedirectURIMatches {
    static let mismatch =
        "The provided authorization grant (e.g., authorization code, resource owner credentials) or refresh token is "
        + "invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was "
        + "issued to another client."

    static func check(_ code: AuthorizationCodeRecord, presented: String?) throws(OAuthError) {
        guard !code.redirectURI.isEmpty else { return }
        guard let presented else {
            throw OAuthError(.invalidRequest, description: "required parameter 'redirect_uri' is missing")
        }
        guard presented == code.redirectURI else {
            throw OAuthError(.invalidGrant, description: Self.mismatch)
        }
    }
}
