import BridgeStore
import Foundation
import SignInProtocol

/// Token revocation (RFC 7009): the client authenticates as at the token endpoint and sends `token` (and maybe
/// `token_type_hint`). The answer is 200 whether or not the token was known (§2.2), and also when it belongs to
/// another client, which is then left alone: a client learns nothing about tokens that are not its own.
/// Revoking a refresh token revokes its grant, and with it every access token issued under it (§2.1). A Native SSO
/// device secret (our `token_type_hint` `device_secret`) ends its device session when the client is of its SSO group.
struct RevocationEndpoint: Sendable {
    let authenticator: ClientAuthenticator
    let verifier: AccessTokenVerifier
    let store: any TokenStore & DeviceSSOStore
    let now: @Sendable () -> Date

    func respond(to request: OAuthFormRequest) async throws(OAuthError) {
        let (form, client, token) = try await OAuthForm.tokenQuestion(request, authenticator: authenticator)
        let time = now()
        switch PresentedToken(token) {
        case .accessToken(let jwt):
            // One store call: the signature says whose token it is, and revoking a revoked or expired token changes
            // nothing. Forged, foreign and other clients' tokens are left alone.
            guard let claims = try? await verifier.verifiedClaims(jwt, at: time), claims.client_id == client.id else { return }
            _ = try await storeCall { try await store.revokeAccessToken(tokenID: claims.jti.value, at: time) }
        case .wopiAccessToken:
            // A WOPI token carries its own proof and ends with its grant (docs/wopi-access-tokens.md): revoke the
            // refresh token. RFC 7009 §2.2 answers 200 for a token the server does not revoke.
            return
        case .refreshToken(let value):
            let digest = TokenDigest(of: value)
            let group = client.client.ssoGroup
            // §2.1: the hint says where to look first; without a match the other kind is searched too.
            if let group, form["token_type_hint"] == NativeSSO.deviceSecretHint,
                try await storeCall({ try await store.endDeviceSession(digest, group: group, at: time) })
            {
                return
            }
            let status = try await storeCall { try await store.revokeRefreshToken(digest, clientID: client.id, at: time) }
            if case .unknown = status, let group {
                _ = try await storeCall { try await store.endDeviceSession(digest, group: group, at: time) }
            }
        }
    }
}
