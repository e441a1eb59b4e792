import BridgeStore
import Foundation
import SignInProtocol

/// `grant_type=client_credentials` (RFC 6749 §4.4) for confidential clients registered for it: a grant without a
/// user (so the token's `sub` is the client, and the bootstrapper, which needs a user, refuses it), and no refresh
/// token (§4.4.3). `scope` is kept as asked; no resource here checks it yet.
struct ClientCredentialsGrant: GrantHandler {
    static let grant = GrantKind.clientCredentials
    let minter: TokenMinter

    init(_ dependencies: GrantDependencies) {
        minter = dependencies.minter
    }

    func respond(to request: GrantRequest) async throws(OAuthError) -> TokenResponse {
        try await issue(scope: request.token.scope, client: request.client, proof: request.proof, at: request.now)
    }

    func issue(
        scope: String?, client: AuthenticatedClient, proof: VerifiedDPoPProof?, at now: Date
    ) async throws(OAuthError) -> TokenResponse {
        guard !client.client.public else {
            throw OAuthError(.unauthorizedClient, description: "client_credentials needs a confidential client (RFC 6749 section 4.4)")
        }
        let grant = GrantRecord(userID: "", clientID: client.id, scope: scope ?? "", createdAt: now)
        return try await minter.respond(creating: grant, at: now, boundTo: proof?.thumbprint)
    }
}
