import BridgeStore
import Foundation
import SignInProtocol

/// The token exchange of OpenID Connect Native SSO for Mobile Apps 1.0 (draft 07 §4): another app of the same SSO
/// group presents the first app's ID token (`subject_token`) and the device secret (`actor_token`), and gets its own
/// tokens for the same user and device session: an access token, an ID token with the same `sid` and `ds_hash`, and
/// a refresh token when it may refresh. The device secret is not rotated, so none is returned (§4.4 makes it
/// optional). Checks in the order of §4.3; every refusal issues nothing.
struct NativeSSOExchange: Sendable {
    let store: any DeviceSSOStore
    let minter: TokenMinter
    let idTokens: IDTokenIssuer?
    let issuer: String

    func respond(to request: GrantRequest, exchange: TokenRequest.TokenExchange) async throws(OAuthError) -> TokenResponse {
        let client = request.client
        guard let group = client.client.ssoGroup, let idTokens else {
            throw OAuthError(.unauthorizedClient, description: "this client has no ssoGroup: it may not use Native SSO")
        }
        let deviceSecret = try NativeSSOChecks.checkRequest(exchange, issuer: issuer)
        guard let claims = await idTokens.verifiedHint(exchange.subjectToken) else {
            throw OAuthError(.invalidGrant, description: "subject_token is not an ID token this server issued (Native SSO draft 07 section 4.3)")
        }
        let binding = try NativeSSOChecks.checkBinding(claims, deviceSecret: deviceSecret)
        // The other app gets `openid` unless it asks for more: at most what it may ask for itself, and at most what
        // the session's first app was granted (the store's check).
        let requested = (request.token.scope ?? "").split(separator: " ").map(String.init)
        let scope = try CheckScope.granted(
            requested.isEmpty ? [OpenIDScope.openid] : requested, allowed: client.client.scopes, default: [])
        let claim = DeviceSessionClaim(sid: binding.sid, userID: claims.sub, group: group, scope: scope)
        let grant = GrantRecord(userID: claims.sub, clientID: client.id, scope: scope, createdAt: request.now)
        let (draft, access, refresh) = minter.draft(
            withRefresh: client.client.grants.contains(.refreshToken), binding: DPoPBinding(proof: request.proof, client: client),
            at: request.now)
        let outcome = try await storeCall {
            try await store.exchangeDeviceSecret(
                TokenDigest(of: deviceSecret), claim: claim, grant: grant, issuing: draft, at: request.now)
        }
        let session = try NativeSSOChecks.checkExchanged(outcome, claim: claim)
        let signed = try serverErrorOnFailure { try minter.signed(access, in: grant, scope: scope) }
        var response = TokenMinter.response(signed, issuedAt: request.now, refreshToken: refresh, scope: scope)
        response.issuedTokenType = TokenExchangeGrant.accessTokenType
        if OpenIDScope.isOpenID(scope) {
            let idToken = try serverErrorOnFailure {
                try idTokens.idToken(
                    subject: claims.sub, clientID: client.id, nonce: nil, authTime: session.authTime,
                    accessToken: signed.token, algorithm: client.client.idTokenSignedResponseAlg, deviceSession: binding,
                    at: request.now)
            }
            response.additionalFields["id_token"] = .string(idToken)
        }
        return response
    }
}
