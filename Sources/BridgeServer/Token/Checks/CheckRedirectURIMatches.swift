import BridgeStore
import SignInProtocol

/// RFC 6749 §4.1.3 and RFC 9700 §2.1: `redirect_uri` must be the one of the authorization request, compared as
/// exact strings (no normalisation: `https://localhost` and `https://localhost/` differ).
struct CheckRedirectURIMatches {
    static func check(_ code: AuthorizationCodeRecord, presented: String?) throws(OAuthError) {
        guard !code.redirectURI.isEmpty else { return }
        guard let presented else {
            throw OAuthError(.invalidRequest, description: "required parameter 'redirect_uri' is missing")
        }
        guard presented == code.redirectURI else {
            throw OAuthError(.invalidGrant, description: "redirect_uri does not match the authorization request")
        }
    }
}
