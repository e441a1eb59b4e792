import BridgeStore
import SignInProtocol

/// What a refresh token is bound to, and the one place that decides both when it is issued and when it is presented.
/// Written after the token's `.` (`SecretToken.bound(to:)`): a DPoP key's thumbprint as it is, a Client Instance Key's
/// behind `attested~` (`~` is no base64url character, so the two never read as each other).
enum RefreshTokenBinding: Sendable, Hashable {
    /// A public client's DPoP key: refreshing needs a proof by it (RFC 9449 §5).
    case dpopKey(String)
    /// The Client Instance Key of the attestation that authenticated the client: refreshing needs client attestation
    /// with that key, whatever DPoP proof comes along (draft-ietf-oauth-attestation-based-client-auth-11 §9.3).
    case clientInstanceKey(String)

    static let instancePrefix = "attested~"

    /// The text after the token's `.`.
    var encoded: String {
        switch self {
        case .dpopKey(let thumbprint): thumbprint
        case .clientInstanceKey(let thumbprint): Self.instancePrefix + thumbprint
        }
    }

    /// The binding a presented token carries; nil for an unbound token.
    init?(presented token: String) {
        guard let binding = SecretToken.binding(of: token) else { return nil }
        if binding.hasPrefix(Self.instancePrefix) {
            self = .clientInstanceKey(String(binding.dropFirst(Self.instancePrefix.count)))
        } else {
            self = .dpopKey(String(binding))
        }
    }

    /// The binding of a refresh token issued now: an attested client's to its instance key; a public client's to the
    /// proof's key (§5); a confidential client's to nothing, its authentication already binds it (§5).
    init?(proof: VerifiedDPoPProof?, client: AuthenticatedClient) {
        if let attestation = client.attestation {
            self = .clientInstanceKey(attestation.keyThumbprint)
        } else if client.client.public, let proof {
            self = .dpopKey(proof.thumbprint)
        } else {
            return nil
        }
    }

    /// Checked before the store step, so a stolen token sent without its key changes nothing (neither rotates nor
    /// revokes). An instance-bound token is refused to a client authenticated any other way than by an attestation
    /// of that key, however it authenticated and whichever DPoP key it proves: a removed attester's clients, or a
    /// thief with only `client_id` and a proof, get nothing.
    static func check(_ presented: String, proof: VerifiedDPoPProof?, client: AuthenticatedClient) throws(OAuthError) {
        switch RefreshTokenBinding(presented: presented) {
        case nil: return
        case .clientInstanceKey(let bound)?:
            guard let attestation = client.attestation else {
                throw OAuthError(
                    .invalidGrant,
                    description: "the refresh token is bound to a client instance key: refresh with "
                        + "\(ClientAttestationNames.authenticationMethod) (attestation draft section 9.3)")
            }
            guard ConstantTime.equal(bound.utf8, attestation.keyThumbprint.utf8) else {
                throw OAuthError(
                    .invalidGrant,
                    description: "the refresh token is bound to another client instance key (attestation draft section 9.3)")
            }
        case .dpopKey(let bound)?:
            guard let proof else {
                throw OAuthError(.invalidGrant, description: "the refresh token is bound to a DPoP key: send a proof made with it (RFC 9449 section 5)")
            }
            guard ConstantTime.equal(bound.utf8, proof.thumbprint.utf8) else {
                throw OAuthError(.invalidGrant, description: "the refresh token is bound to another DPoP key (RFC 9449 section 5)")
            }
        }
    }
}
