import BridgeStore
import Crypto
import Foundation
import SignInProtocol

/// The `DPoP` header fields of a request and the request they came with, as a route read them.
struct DPoPPresentation: Sendable, Hashable {
    /// Every `DPoP` field's value; empty when the request had none.
    var proofs: [String]
    /// The request's method and its URI on the issuer's origin (RFC 9449 §4.3 steps 8 and 9).
    var method: String
    var uri: String

    /// The one proof sent, nil for none; two are refused (§4.3 step 1).
    func singleProof() throws(OAuthError) -> String? {
        guard proofs.count <= 1 else {
            throw OAuthError(.invalidDPoPProof, description: "more than one DPoP header (RFC 9449 section 4.3)")
        }
        return proofs.first
    }
}

/// Everything a request's DPoP proof goes through, for the token, pushed authorization and authorization challenge
/// endpoints and every resource: RFC 9449 §4.3's checks
/// (`DPoPProofCheck`), then the replay check as one store step (§11.1), so that a proof used at one instance is
/// refused at every other sharing the store. Also the one source of the `DPoP-Nonce` value sent back (§8.1, §9).
struct DPoPProofs: Sendable {
    let check: DPoPProofCheck
    let nonces: DPoPNonces
    let store: any DPoPProofStore

    /// `requireNonce`: `dpop.requireNonce`; the nonces' secret is the key file's (`SigningKeySet.dpopNonceSecret`).
    init(requireNonce: Bool, secret: SymmetricKey, store: any DPoPProofStore) {
        nonces = DPoPNonces(secret: secret)
        check = DPoPProofCheck(nonces: requireNonce ? nonces : nil)
        self.store = store
    }

    /// The proof's `jti` and key when `header` is a good, first-used proof for `request`.
    func verify(_ header: String, for request: DPoPRequest, at now: Date) async throws(DPoPRefusal) -> VerifiedDPoPProof {
        let proof = try check.check(header, for: request, at: now)
        let use = DPoPProofUse(keyThumbprint: proof.thumbprint, proofID: proof.id, expiresAt: proof.replayWindowEnds)
        let outcome = try await callStore(failingAs: DPoPRefusal.self) { try await store.useDPoPProof(use, at: now) }
        guard outcome == .firstUse else {
            throw .invalidProof(.invalid(member: "jti", reason: "was used before: a proof is good for one request (RFC 9449 section 11.1)"))
        }
        return proof
    }

    /// A request's DPoP proof, checked and recorded as used (RFC 9449 §5), for the token endpoint and the
    /// authorization challenge endpoint; nil when none was sent, which a client with `requireDPoP` may not do.
    func proof(
        _ presentation: DPoPPresentation?, client: AuthenticatedClient, at now: Date
    ) async throws(OAuthError) -> VerifiedDPoPProof? {
        guard let proof = try await presentedProof(presentation, at: now) else {
            guard !client.client.requireDPoP else {
                throw OAuthError(.invalidDPoPProof, description: "this client must send a DPoP proof (RFC 9449 section 5)")
            }
            return nil
        }
        return proof
    }

    /// The proof a request sent, checked and recorded as used exactly as at the token endpoint; nil when none was
    /// sent. The pushed authorization endpoint's, where a proof is optional (RFC 9449 §10.1).
    func presentedProof(_ presentation: DPoPPresentation?, at now: Date) async throws(OAuthError) -> VerifiedDPoPProof? {
        guard let presentation, let header = try presentation.singleProof() else { return nil }
        do throws(DPoPRefusal) {
            return try await verify(header, for: DPoPRequest(method: presentation.method, uri: presentation.uri), at: now)
        } catch {
            throw error.oauthError
        }
    }

    /// The `DPoP-Nonce` value for a response to a request that sent a proof; nil when nonces are not required (the
    /// server then never asks for one, §8).
    func nonceField(at now: Date) -> String? {
        check.nonces?.current(at: now)
    }
}
