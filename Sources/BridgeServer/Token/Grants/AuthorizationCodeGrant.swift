import BridgeStore
import Foundation
import SignInProtocol

/// `grant_type=authorization_code` (RFC 6749 §4.1.3), one store call: the store consumes the code atomically, so two
/// concurrent redemptions can never both pass, and records the drafted token response in the same transaction; a
/// second redemption revokes the code's grant and with it every token issued from the first one (RFC 9700 §4.2.4).
/// The checks then run on the consumed code: a failed attempt burns it, and the tokens recorded for it are never
/// handed out (their secrets exist only in this call).
struct AuthorizationCodeGrant: GrantHandler {
    static let grant = GrantKind.authorizationCode
    let store: any CodeStore & DeviceSSOStore
    let minter: TokenMinter
    let idTokens: IDTokenIssuer?
    let deviceSecretLifetime: TimeInterval
    let stepUp: StepUpIssuance?

    init(_ dependencies: GrantDependencies) {
        stepUp = dependencies.stepUp
        store = dependencies.store
        minter = dependencies.minter
        idTokens = dependencies.idTokens
        deviceSecretLifetime = dependencies.deviceSecretLifetime
    }

    func respond(to request: GrantRequest) async throws(OAuthError) -> TokenResponse {
        guard case .authorizationCode(let code, let redirectURI, let codeVerifier) = request.token.grant else {
            throw OAuthError(.unsupportedGrantType, description: "not an authorization_code request")
        }
        return try await exchange(
            code: code, redirectURI: redirectURI, codeVerifier: codeVerifier, client: request.client,
            sessionContext: request.sessionContext, proof: request.proof, at: request.now)
    }

    func exchange(
        code: String, redirectURI: String?, codeVerifier: String?, client: AuthenticatedClient,
        sessionContext: String?, proof: VerifiedDPoPProof?, at now: Date
    ) async throws(OAuthError) -> TokenResponse {
        let (draft, access, refresh) = minter.draft(
            withRefresh: client.client.grants.contains(.refreshToken), binding: DPoPBinding(proof: proof, client: client),
            at: now)
        let redemption = try await storeCall {
            try await store.redeemAuthorizationCode(TokenDigest(of: code), at: now, issuing: draft, sessionContext: sessionContext)
        }
        let device = DeviceSecretDraft(client: client.client, lifetime: deviceSecretLifetime)
        let (response, deviceSession) = try answer(
            redemption, access: access, refresh: refresh, device: device, redirectURI: redirectURI,
            codeVerifier: codeVerifier, client: client, proof: proof, at: now)
        if let deviceSession {
            // A second step, after the code is consumed: were it to fail, the response (and its tokens) is never sent.
            try await storeCall { try await store.createDeviceSession(deviceSession) }
        }
        return response
    }

    /// The checks on the consumed code and the signed answer, outside `exchange`: an async function's frame holds
    /// every temporary of its body, and a connection keeps its deepest frames while it is open (3,248 bytes when
    /// this was inlined there, against the async function pointer's context size now).
    @inline(never)
    func answer(
        _ redemption: CodeRedemption, access: AccessTokenDraft, refresh: SecretToken?, device: DeviceSecretDraft?,
        redirectURI: String?, codeVerifier: String?, client: AuthenticatedClient, proof: VerifiedDPoPProof?, at now: Date
    ) throws(OAuthError) -> (TokenResponse, DeviceSessionRecord?) {
        let record: AuthorizationCodeRecord
        let grant: GrantRecord
        switch redemption {
        case .redeemed(let redeemedCode, let itsGrant): (record, grant) = (redeemedCode, itsGrant)
        case .replayed:
            throw OAuthError(.invalidGrant, description: "the code was already used; every token issued from it is now revoked")
        case .expired: throw OAuthError(.invalidGrant, description: "the code has expired")
        case .revoked: throw OAuthError(.invalidGrant, description: "the code's grant was revoked")
        case .unknown: throw OAuthError(.invalidGrant, description: "the code is unknown")
        }
        try CheckCodeIssuedToClient.check(record, client: client)
        try CheckRedirectURIMatches.check(record, presented: redirectURI)
        try CheckPKCE.check(record, verifier: codeVerifier, client: client)
        try DPoPBinding.checkCode(record, proof: proof)
        // No second look at the grant: were it revoked from now on (a concurrent replay), the tokens below would be
        // refused anyway, because every token's status is read through its grant.
        let signed = try unavailableOnFailure { try minter.signed(access, in: grant, scope: record.scope) }
        var response = TokenMinter.response(signed, issuedAt: now, refreshToken: refresh, scope: record.scope)
        if let stepUp, client.client.firstParty, OpenIDScope.isOpenID(record.scope) {
            // Draft §6.1: "MAY be included even if the authorization code was obtained through a traditional OAuth
            // authorization code flow"; bound to this client, user, grant and DPoP key. Only for an OpenID request:
            // it restores a user's sign-in, which a plain OAuth request never asked for.
            response.additionalFields["auth_session"] = stepUp.session(
                in: grant, dpopKey: proof?.thumbprint, at: now).map(JSONValue.string)
        }
        guard let idTokens, OpenIDScope.isOpenID(record.scope) else { return (response, nil) }
        // Native SSO draft 07 §3.4.2: a code granted `device_sso` yields a device secret, and the ID token its
        // `sid` and `ds_hash`.
        let device = NativeSSO.isGranted(in: record.scope) ? device : nil
        // OpenID Connect Core §3.1.3.3: a code requested with scope=openid yields an ID token too.
        let idToken = try unavailableOnFailure {
            try idTokens.idToken(
                subject: grant.subject, clientID: client.id, nonce: record.nonce, authTime: record.authTime,
                accessToken: signed.token, algorithm: client.client.idTokenSignedResponseAlg,
                deviceSession: device?.binding, at: now)
        }
        response.additionalFields["id_token"] = .string(idToken)
        guard let device else { return (response, nil) }
        response.additionalFields["device_secret"] = .string(device.secret.value)
        return (
            response,
            device.record(userID: grant.userID, clientID: client.id, scope: record.scope, authTime: record.authTime, at: now)
        )
    }
}
