import BridgeStore
import Foundation
import SignInProtocol

/// `grant_type=urn:ietf:params:oauth:grant-type:token-exchange` (RFC 8693), impersonation only: the subject token is
/// a user's access token of ours, and the answer is a new access token for the same user, issued to the client
/// `audience` names (the requesting client when there is none), in a new grant, without a refresh token. The
/// subject token's client, the requesting client and the target must share a merchant (`MerchantClients`).
/// Errors as RFC 8693 §2.2.2 says: a bad subject token is `invalid_request`, a target we will not issue for is
/// `invalid_target`. An ID token with a device secret is OpenID Connect Native SSO instead (`NativeSSOExchange`).
struct TokenExchangeGrant: GrantHandler {
    static let grant = GrantKind.tokenExchange
    /// RFC 8693 §3.
    static let accessTokenType = "urn:ietf:params:oauth:token-type:access_token"

    let minter: TokenMinter
    let verifier: AccessTokenVerifier
    let merchants: MerchantClients
    /// Our tokens' audience (RFC 9068 `aud`): the one `resource` value a token of ours is good for.
    let issuer: String
    let nativeSSO: NativeSSOExchange

    init(_ dependencies: GrantDependencies) {
        minter = dependencies.minter
        verifier = dependencies.verifier
        merchants = dependencies.merchants
        issuer = dependencies.verifier.issuer
        nativeSSO = NativeSSOExchange(
            store: dependencies.store, minter: dependencies.minter, idTokens: dependencies.idTokens,
            issuer: dependencies.verifier.issuer)
    }

    func respond(to request: GrantRequest) async throws(OAuthError) -> TokenResponse {
        guard case .tokenExchange(let exchange) = request.token.grant else {
            throw OAuthError(.unsupportedGrantType, description: "not a token exchange request")
        }
        if exchange.isNativeSSO { return try await nativeSSO.respond(to: request, exchange: exchange) }
        try Self.checkTokenTypes(exchange)
        let subject = try await verifier.userToken(exchange.subjectToken, at: request.now, refusedAs: .invalidRequest)
        guard DPoPBinding.checkAccessToken(subject.claims, proof: request.proof) else {
            // Keycloak does the same: a bound subject token is only as good as a proof by its key (RFC 9449 §7.1).
            throw OAuthError(.invalidRequest, description: "the subject token is DPoP-bound: send a proof made with its key")
        }
        guard merchants.sibling(request.client.id, of: subject.grant.clientID) != nil else {
            throw OAuthError(.invalidRequest, description: "the subject token was issued to a client of another merchant")
        }
        let target = try target(of: exchange, requester: request.client, subjectClient: subject.grant.clientID)
        let offered = MerchantClients.narrowed(subject.claims.scope ?? subject.grant.scope, for: target)
        let scope = try CheckScopeNarrowing.check(requested: request.token.scope, granted: offered)
        let grant = GrantRecord(userID: subject.grant.userID, clientID: target.id, scope: scope, createdAt: request.now)
        // The new token is bound to the requester's key when it sent a proof (RFC 9449 §5).
        var response = try await minter.respond(creating: grant, at: request.now, boundTo: request.proof?.thumbprint)
        response.issuedTokenType = Self.accessTokenType
        return response
    }

    /// Only access tokens in and out; no delegation (`actor_token`).
    static func checkTokenTypes(_ exchange: TokenRequest.TokenExchange) throws(OAuthError) {
        guard exchange.subjectTokenType == accessTokenType else {
            throw OAuthError(.invalidRequest, description: "subject_token_type must be \(accessTokenType)")
        }
        guard exchange.actorToken == nil else {
            throw OAuthError(.invalidRequest, description: "actor_token (delegation) is not supported; impersonation only")
        }
        if let requested = exchange.requestedTokenType, requested != accessTokenType {
            throw OAuthError(.invalidRequest, description: "requested_token_type must be \(accessTokenType)")
        }
    }

    /// The client the new token is for: the one `audience` names, else the requester; `resource` may only name our
    /// own issuer, the audience of every token of ours.
    func target(
        of exchange: TokenRequest.TokenExchange, requester: AuthenticatedClient, subjectClient: String
    ) throws(OAuthError) -> BridgeConfiguration.Client {
        for resource in exchange.resources where resource != issuer {
            throw OAuthError(.invalidTarget, description: "resource is not served by this issuer")
        }
        let audiences = Set(exchange.audiences)
        guard audiences.count <= 1 else {
            throw OAuthError(.invalidTarget, description: "one token is issued for one audience")
        }
        let targetID = audiences.first ?? requester.id
        guard let target = merchants.sibling(targetID, of: subjectClient) else {
            throw OAuthError(.invalidTarget, description: "audience is not a client of the same merchant")
        }
        return target
    }
}
