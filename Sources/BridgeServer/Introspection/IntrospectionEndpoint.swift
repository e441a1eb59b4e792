import BridgeStore
import Foundation
import SignInProtocol

/// Token introspection (RFC 7662), for authenticated clients only. A token is reported active only to the client it
/// was issued to; for anyone else, and for unknown, expired, rotated or revoked tokens, the answer is just
/// `{"active":false}` (§2.2), so introspection cannot be used to probe other clients' tokens (§4). WOPI access tokens
/// are reported only to clients with `wopiServer` (`WopiTokenIntrospection`).
struct IntrospectionEndpoint: Sendable {
    let authenticator: ClientAuthenticator
    let verifier: AccessTokenVerifier
    let wopiTokens: WopiTokenIntrospection
    let store: any TokenStore
    let issuer: String
    let now: @Sendable () -> Date

    func respond(to request: OAuthFormRequest) async throws(OAuthError) -> IntrospectionResponse {
        let (_, client, token) = try await OAuthForm.tokenQuestion(request, authenticator: authenticator)
        let time = now()
        switch PresentedToken(token) {
        case .accessToken(let jwt):
            guard let verified = try await verifier.activeToken(jwt, of: client.id, at: time) else { return .inactive }
            return IntrospectionResponse(
                active: true, scope: verified.claims.scope, client_id: verified.grant.clientID,
                token_type: verified.claims.tokenType,
                exp: Int(verified.record.expiresAt.timeIntervalSince1970), iat: Int(verified.record.issuedAt.timeIntervalSince1970),
                sub: verified.grant.subject, aud: issuer, iss: issuer, jti: verified.record.tokenID, cnf: verified.claims.cnf)
        case .wopiAccessToken(let value):
            return try await wopiTokens.introspect(value, for: client, at: time)
        case .refreshToken(let value):
            let status = try await storeCall { try await store.refreshTokenStatus(TokenDigest(of: value), at: time) }
            guard case .active(let record, let grant) = status, record.clientID == client.id else { return .inactive }
            return IntrospectionResponse(
                active: true, scope: record.scope.isEmpty ? nil : record.scope, client_id: record.clientID,
                exp: record.expiresAt.map { Int($0.timeIntervalSince1970) }, iat: Int(record.issuedAt.timeIntervalSince1970),
                sub: grant.subject, iss: issuer)
        }
    }
}
