import BridgeStore
import Foundation
import SignInProtocol

/// A client the token, revocation or introspection endpoint has authenticated.
struct AuthenticatedClient: Sendable, Hashable {
    let client: BridgeConfiguration.Client
    /// `client_secret_basic`, `client_secret_post`, `none` (RFC 8414 §2 names) or `attest_jwt_client_auth`
    /// (draft-ietf-oauth-attestation-based-client-auth-11 §8).
    let method: String
    /// The attestation that authenticated the client, when `method` is `attest_jwt_client_auth`.
    var attestation: VerifiedClientAttestation? = nil

    var id: String { client.id }
}

/// Authenticates the client of a token-endpoint-style request (RFC 6749 §2.3): `client_secret_basic` or
/// `client_secret_post` for confidential clients, compared in constant time against the configured hash, and
/// `none` (just `client_id`) for public clients, and `attest_jwt_client_auth` for any client whose attestation a
/// trusted attester signed (`ClientAttestationCheck`). Every failure is `invalid_client` (or the attestation draft's
/// codes), answered 401 with a Basic challenge (RFC 6749 §5.2), except two methods in one request, which is
/// `invalid_request`.
struct ClientAuthenticator: Sendable {
    let clients: [String: BridgeConfiguration.Client]
    /// Every configured secret of each confidential client (`secretHash` and `secrets`), with its expiry.
    let secrets: [String: [ClientSecretHash.Expiring]]
    let now: @Sendable () -> Date
    /// Nil when no attester is configured: the attestation headers are then ignored, as any unknown header.
    let attestations: ClientAttestationCheck?
    /// Where used PoP `jti`s are remembered: the DPoP proofs' single-use store, under a digest of their own.
    let usedProofs: (any DPoPProofStore)?

    init(
        clients: [BridgeConfiguration.Client], attestations: ClientAttestationCheck? = nil,
        usedProofs: (any DPoPProofStore)? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        var byID = [String: BridgeConfiguration.Client]()
        var secrets = [String: [ClientSecretHash.Expiring]]()
        for client in clients {
            byID[client.id] = client
            secrets[client.id] = client.allSecrets.compactMap { secret in
                ClientSecretHash(configured: secret.hash).map { .init(hash: $0, expiresAt: secret.expiryDate) }
            }
        }
        self.clients = byID
        self.secrets = secrets
        self.now = now
        self.attestations = attestations.flatMap { $0.attesters.isEmpty ? nil : $0 }
        self.usedProofs = usedProofs
    }

    /// What every endpoint calls: the checks below, then, for an attestation, the PoP's replay check as one store
    /// step (draft-ietf-oauth-attestation-based-client-auth-11 §11.1), so a PoP used at one instance is refused at all.
    func authenticate(_ request: OAuthFormRequest, form: FormParameters) async throws(OAuthError) -> AuthenticatedClient {
        let client = try authenticate(form: form, authorization: request.authorization, attestation: request.attestation)
        guard let attestation = client.attestation else { return client }
        // A server built without the replay store is the server's fault, not an outage.
        guard let usedProofs else { throw .serverFault }
        let use = DPoPProofUse(
            clientAttestationKey: attestation.keyThumbprint, proofID: attestation.proofID,
            expiresAt: attestation.replayWindowEnds)
        let outcome = try await callStore(failingAs: OAuthError.self) { try await usedProofs.useDPoPProof(use, at: now()) }
        guard outcome == .firstUse else {
            throw ClientAttestationCheck.refusal("the PoP's jti was used before: a PoP is good for one request (section 11.1)")
        }
        return client
    }

    /// A hash of nothing in particular, compared against when the client is unknown so that both paths cost the same.
    private static let decoy = ClientSecretHash(configured: "sha256:" + String(repeating: "0", count: 64))!

    /// Every check but the PoP's replay step; `attestation`: the request's attestation header fields.
    func authenticate(
        form: FormParameters, authorization: String?, attestation: ClientAttestationPresentation? = nil
    ) throws(OAuthError) -> AuthenticatedClient {
        let hasHeader = !(authorization ?? "").isEmpty
        if let attestations, let attestation, !attestation.isEmpty {
            guard !hasHeader, form["client_secret"] == nil else {
                // RFC 6749 §2.3: "MUST NOT use more than one authentication method in each request".
                throw OAuthError(.invalidRequest, description: "a client attestation and a client secret in one request")
            }
            return try authenticateAttested(form: form, presentation: attestation, check: attestations)
        }
        if hasHeader, form["client_secret"] != nil {
            // RFC 6749 §2.3: "MUST NOT use more than one authentication method in each request".
            throw OAuthError(.invalidRequest, description: "client credentials sent both in the Authorization header and in the body")
        }
        let presented: ClientAuthentication?
        do {
            presented = try ClientAuthentication.decode(form: form, authorization: authorization)
        } catch .invalidClientAuthentication(let reason) {
            throw OAuthError(.invalidClient, description: reason)
        } catch {
            throw error.oauthError
        }
        guard let presented else {
            throw OAuthError(.invalidClient, description: "client authentication is required (client_id, or HTTP Basic)")
        }
        guard let client = clients[presented.clientID] else {
            _ = Self.decoy.matches(presented.clientSecret ?? "")
            throw OAuthError(.invalidClient, description: "client authentication failed")
        }
        if client.requiresAttestation {
            throw OAuthError(
                .invalidClient,
                description: "client '\(client.id)' must authenticate with \(ClientAttestationNames.authenticationMethod)")
        }
        if client.public {
            // RFC 8252 §8.5: a native app cannot keep a secret; one sent anyway means a misconfigured client.
            guard presented.clientSecret == nil else {
                throw OAuthError(.invalidClient, description: "client '\(client.id)' is public and has no secret")
            }
            return AuthenticatedClient(client: client, method: "none")
        }
        guard let secret = presented.clientSecret,
            let matched = ClientSecretHash.Expiring.firstMatch(of: secret, in: secrets[client.id] ?? [])
        else {
            throw OAuthError(.invalidClient, description: "client authentication failed")
        }
        if let expiresAt = matched.expiresAt, expiresAt <= now() {
            // Said only to a caller who knows the secret, so the partner learns why it stopped working.
            throw OAuthError(.invalidClient, description: "the client secret has expired")
        }
        return AuthenticatedClient(client: client, method: presented.method.rawValue)
    }

    /// draft-ietf-oauth-attestation-based-client-auth-11 §7.1, §7.2 and §7.5: one attestation and one PoP, both
    /// verified, naming a configured client that a `client_id` in the body (if any) agrees with.
    private func authenticateAttested(
        form: FormParameters, presentation: ClientAttestationPresentation, check: ClientAttestationCheck
    ) throws(OAuthError) -> AuthenticatedClient {
        guard presentation.attestations.count == 1, presentation.proofs.count == 1 else {
            throw ClientAttestationCheck.refusal(
                "send exactly one \(ClientAttestationNames.attestationHeader) and one "
                    + "\(ClientAttestationNames.proofOfPossessionHeader) header (sections 7.1 and 7.2)")
        }
        let verified = try check.check(attestation: presentation.attestations[0], proof: presentation.proofs[0], at: now())
        let bodyClientIDs = form.values(for: "client_id")
        guard bodyClientIDs.count <= 1, bodyClientIDs.allSatisfy({ $0 == verified.clientID }) else {
            throw ClientAttestationCheck.refusal("client_id is not the client attestation's sub (section 7.5)")
        }
        guard let client = clients[verified.clientID] else {
            throw OAuthError(.invalidClient, description: "the client attestation's sub names no client of this server")
        }
        guard check.attesters.mayVouch(verified.attester, for: client) else {
            throw ClientAttestationCheck.refusal(
                "the attester may not vouch for this client (clientAttestation.attesters[].clients; section 9.8)")
        }
        return AuthenticatedClient(client: client, method: ClientAttestationNames.authenticationMethod, attestation: verified)
    }
}

/// The attestation header fields of a request, as a route read them (draft-ietf-oauth-attestation-based-client-auth-11
/// §4, §5.1): every value of each, so that more than one of either can be refused.
struct ClientAttestationPresentation: Sendable, Hashable {
    var attestations: [String]
    var proofs: [String]

    var isEmpty: Bool { attestations.isEmpty && proofs.isEmpty }
}
