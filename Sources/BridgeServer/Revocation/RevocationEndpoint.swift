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
    let store: any Store
    let now: @Sendable () -> Date

    func respond(to request: OAuthFormRequest) async throws(OAuthError) {
        let form = try OAuthForm.decode(request.body)
        let client = try authenticator.authenticate(form: form, authorization: request.authorization)
        let token = try OAuthForm.singleToken(in: form)
        let time = now()
        switch PresentedToken(token) {
        case .accessToken(let jwt):
            // Expired, revoked or foreign tokens need nothing; only an active token of this client is revoked.
            guard let verified = try await verifier.activeToken(jwt, of: client.id, at: time) else { return }
            _ = try await storeCall { try await store.revokeAccessToken(tokenID: verified.record.tokenID, at: time) }
        case .refreshToken(let value):
            let status = try await storeCall { try await store.refreshTokenStatus(TokenDigest(of: value), at: time) }
            switch status {
            case .active(let record, _), .rotated(let record), .expired(let record), .revoked(let record):
                guard record.clientID == client.id else { return }
                _ = try await storeCall { try await store.revokeGrant(record.grantID, at: time) }
            case .unknown:
                return
            }
        }
    }
}
