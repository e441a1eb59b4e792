import Foundation

/// DPoP proofs already used (RFC 9449 §11.1): a proof is good for one request, so the server remembers each until
/// its `iat` window has passed. Kept in the store, not in a process, so that a proof used at one instance and
/// replayed at another behind the same load balancer is refused there too.
public protocol DPoPProofStore: Sendable {
    /// Records the proof as used; `.replayed` when it was used before and its window has not ended. One statement,
    /// so two instances racing with the same proof cannot both see `.firstUse`.
    func useDPoPProof(_ proof: DPoPProofUse, at now: Date) async throws -> DPoPProofUseOutcome
}

/// One use of a proof: `digest` names the proof by its key and `jti` together (a `jti` is only unique per key,
/// RFC 9449 §4.2), and `expiresAt` ends its `iat` window.
public struct DPoPProofUse: Sendable, Hashable {
    public var digest: TokenDigest
    public var expiresAt: Date

    public init(keyThumbprint: String, proofID: String, expiresAt: Date) {
        digest = TokenDigest(of: keyThumbprint + " " + proofID)
        self.expiresAt = expiresAt
    }

    /// One use of a Client Attestation PoP (draft-ietf-oauth-attestation-based-client-auth-11 §11.1): the same
    /// single-use record, under a digest no DPoP proof of the same key and `jti` can have.
    public init(clientAttestationKey keyThumbprint: String, proofID: String, expiresAt: Date) {
        digest = TokenDigest(of: "client-attestation-pop " + keyThumbprint + " " + proofID)
        self.expiresAt = expiresAt
    }
}

public enum DPoPProofUseOutcome: Sendable, Hashable {
    case firstUse
    case replayed
}
