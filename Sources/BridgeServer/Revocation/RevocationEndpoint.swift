import BridgeStore
import Foundation
import SignInProtocol

/// Token revocation (RFC 7009): the client authenticates as at the token endpoint and sends `token` (and maybe
/// `token_type_hint`). The answer is 200 whether or not the token was known (§2.2), and also when it belongs to
/// another client, which is then left alone: a client learns nothing about tokens that are not its own.
/// Revoking a refresh token revokes its grant, and with it every access token issued under it (§2.1).
struct RevocationEndpoint: Sendable {
    let authenticator: ClientAuthenticator
    let verifier: AccessTokenVerifier
    let store: any TokenStore
    let now: @Sendable () -> Date

    func respond(to request: OAuthFormRequest) async throws(OAuthError) {
        let form = try OAuthForm.decode(request.body)
        let client = try await authenticator.authenticate(request, form: form)
        let token = try OAuthForm.singleToken(in: form)
        let time = now()
        switch PresentedToken(token) {
        case .accessToken(let jwt):
            // One store call: the signature says whose token it is, and revoking a revoked or expired token changes
            // nothing. Forged, foreign and other clients' tokens are left alone.
            guard let claims = try? await verifier.verifiedClaims(jwt, at: time), claims.client_id == client.id else { return }
            _ = try await storeCall { try await store.revokeAccessToken(tokenID: claims.jti.value, at: time) }
        case .refreshToken(let value):
            _ = try await storeCall { try await store.revokeRefreshToken(TokenDigest(of: value), clientID: client.id, at: time) }
        }
    }
}
