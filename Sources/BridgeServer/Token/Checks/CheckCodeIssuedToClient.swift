import BridgeStore
import SignInProtocol

/// RFC 6749 §4.1.3: the code must have been issued to the authenticated client.
struct CheckCodeIssuedToClient {
    static func check(_ code: AuthorizationCodeRecord, client: AuthenticatedClient) throws(OAuthError) {
        guard code.clientID == client.id else {
            throw OAuthError(.invalidGrant, description: "the code was issued to another client")
        }
    }
}
