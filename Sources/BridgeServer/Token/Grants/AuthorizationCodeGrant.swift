import BridgeStore
import Foundation
import SignInProtocol

/// `grant_type=authorization_code` (RFC 6749 §4.1.3), one store call: the store consumes the code atomically, so two
/// concurrent redemptions can never both pass, and records the drafted token response (and what the contributors
/// drafted, a device session) in the same transaction; a second redemption revokes the code's grant and with it
/// every token issued from the first one (RFC 9700 §4.2.4). The checks then run on the consumed code: a failed
/// attempt burns it, and the tokens recorded for it are never handed out (their secrets exist only in this call).
/// What the response carries besides the access and refresh token is the `TokenResponseContributors`' job.
struct AuthorizationCodeGrant: GrantHandler {
    static let grant = GrantKind.authorizationCode
    let store: any CodeStore
    let minter: TokenMinter
    let contributors: TokenResponseContributors

    init(_ dependencies: GrantDependencies) {
        store = dependencies.store
        minter = dependencies.minter
        contributors = dependencies.contributors
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
        let drafts = contributors.drafts(for: client, at: now)
        let redemption = try await storeCall {
            try await store.redeemAuthorizationCode(
                TokenDigest(of: code), at: now, issuing: draft, sessionContext: sessionContext, writes: drafts.writes)
        }
        return try answer(
            redemption, access: access, refresh: refresh, drafts: drafts, redirectURI: redirectURI,
            codeVerifier: codeVerifier, client: client, proof: proof, at: now)
    }

    /// The checks on the consumed code and the signed answer, outside `exchange`: an async function's frame holds
    /// every temporary of its body, and a connection keeps its deepest frames while it is open (3,248 bytes when
    /// this was inlined there, against the async function pointer's context size now).
    @inline(never)
    func answer(
        _ redemption: CodeRedemption, access: AccessTokenDraft, refresh: SecretToken?, drafts: RedemptionDrafts,
        redirectURI: String?, codeVerifier: String?, client: AuthenticatedClient, proof: VerifiedDPoPProof?, at now: Date
    ) throws(OAuthError) -> TokenResponse {
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
        let signed = try serverErrorOnFailure { try minter.signed(access, in: grant, scope: record.scope) }
        let response = TokenMinter.response(signed, issuedAt: now, refreshToken: refresh, scope: record.scope)
        return try contributors.response(
            response,
            for: RedeemedCode(
                code: record, grant: grant, client: client, proof: proof, accessToken: signed.token, drafts: drafts,
                now: now))
    }
}
