import Foundation
import SignInProtocol

/// An attestation and its PoP that passed every check of draft-ietf-oauth-attestation-based-client-auth-11 §7.1 and
/// §7.2 but the replay step, which is a store step keyed by `keyThumbprint` and `proofID` until `replayWindowEnds`.
struct VerifiedClientAttestation: Sendable, Hashable {
    /// The attestation's `sub`: the client it authenticates (§4).
    let clientID: String
    /// The configured attester whose key verified it.
    let attester: String
    /// The RFC 7638 thumbprint of the Client Instance Key (`cnf.jwk`).
    let keyThumbprint: String
    /// The PoP's `jti`.
    let proofID: String
    let replayWindowEnds: Date
}

/// Checks the two headers of attestation-based client authentication against the trusted attesters, this server's
/// issuer and the clock. Every failure is an `OAuthError` with the draft's code (§7.4): `use_fresh_attestation` when
/// the attestation is too old, `invalid_client_attestation` for anything else about the two JWTs.
struct ClientAttestationCheck: Sendable {
    let attesters: ClientAttesters
    /// The PoP's audience (§5.1: the RFC 8414 issuer identifier).
    let issuer: String
    let clockSkew: TimeInterval
    let maxAttestationAge: TimeInterval
    let proofLifetime: TimeInterval

    init(attesters: ClientAttesters, issuer: String, settings: BridgeConfiguration.ClientAttestation) {
        self.attesters = attesters
        self.issuer = issuer
        clockSkew = TimeInterval(settings.clockSkewSeconds)
        maxAttestationAge = TimeInterval(settings.maxAttestationAgeSeconds)
        proofLifetime = TimeInterval(settings.proofLifetimeSeconds)
    }

    func check(attestation text: String, proof proofText: String, at now: Date) throws(OAuthError) -> VerifiedClientAttestation {
        let attestation: ClientAttestationJWT
        let proof: ClientAttestationPoP
        do throws(ClientAttestationError) {
            attestation = try ClientAttestationJWT(parsing: text)
            proof = try ClientAttestationPoP(parsing: proofText)
        } catch {
            throw Self.refusal("\(error)")
        }
        let attester = try verifiedAttester(of: attestation)
        try checkTimes(of: attestation.claims, at: now)
        // §7.1: the cnf key is a public key; §7.2: the PoP verifies with it and no other.
        let instanceKey: DPoPProofKey
        do throws(DPoPProofError) {
            instanceKey = try DPoPProofKey(attestation.claims.confirmationKey, algorithm: proof.algorithm)
        } catch {
            throw Self.refusal("the PoP cannot be verified with the attestation's cnf.jwk: \(error)")
        }
        guard instanceKey.verifies(proof.signature, over: proof.signingInput) else {
            throw Self.refusal("the PoP's signature does not verify with the attestation's cnf.jwk (section 7.2)")
        }
        try checkProof(proof.claims, clientID: attestation.claims.subject, at: now)
        return VerifiedClientAttestation(
            clientID: attestation.claims.subject, attester: attester, keyThumbprint: instanceKey.thumbprint,
            proofID: proof.claims.id,
            replayWindowEnds: proofTimes.acceptedUntil(issuedAt: proof.claims.issuedAt))
    }

    /// §7.1: the signature verifies with the key of a trusted attester, under an algorithm that key allows.
    private func verifiedAttester(of attestation: ClientAttestationJWT) throws(OAuthError) -> String {
        let candidates = attesters.candidateKeys(issuer: attestation.claims.issuer, keyID: attestation.header.keyID)
        for candidate in candidates where DPoPProofKey.algorithms(for: candidate.key).contains(attestation.header.algorithm) {
            guard let key = try? DPoPProofKey(candidate.key, algorithm: attestation.header.algorithm) else { continue }
            if key.verifies(attestation.signature, over: attestation.signingInput) { return candidate.attester }
        }
        throw Self.refusal("the client attestation is not signed by a trusted attester (section 7.1)")
    }

    /// §4: `exp` has not passed; §7.1: fresh enough by `iat` (`use_fresh_attestation`); RFC 7519 §4.1.5: `nbf`.
    private func checkTimes(of claims: ClientAttestationJWT.Claims, at now: Date) throws(OAuthError) {
        do throws(JWTTimeProblem) {
            try attestationTimes.check(claims.times, at: now)
        } catch .expired {
            throw OAuthError(.useFreshAttestation, description: "the client attestation has expired (section 4)")
        } catch .issuedTooLongAgo {
            throw OAuthError(.useFreshAttestation, description: "the client attestation is older than this server accepts (section 7.1)")
        } catch {
            throw Self.refusal("the client attestation's \(error)")
        }
    }

    /// §7.2: `aud` is this server's issuer, `iat` within the window, `exp` and `nbf` (when sent) by the one time
    /// rule; `iss` (when sent, as earlier revisions required) is the client the attestation names.
    private func checkProof(_ claims: ClientAttestationPoP.Claims, clientID: String, at now: Date) throws(OAuthError) {
        guard claims.audience.contains(issuer) else {
            throw Self.refusal("the PoP's aud is not this server's issuer \(issuer) (section 5.1)")
        }
        do throws(JWTTimeProblem) {
            try proofTimes.check(claims.times, at: now)
        } catch {
            throw Self.refusal("the PoP's \(error) (section 7.2)")
        }
        if let proofIssuer = claims.issuer, proofIssuer != clientID {
            throw Self.refusal("the PoP's iss is not the attestation's sub")
        }
    }

    /// The attestation's times: `clockSkew` for every claim, `maxAttestationAge` after `iat`.
    private var attestationTimes: JWTTimeRules { JWTTimeRules(leeway: clockSkew, maximumAge: maxAttestationAge) }
    /// The PoP's times: `clockSkew` for every claim, `proofLifetime` after `iat` (also its replay window).
    private var proofTimes: JWTTimeRules { JWTTimeRules(leeway: clockSkew, maximumAge: proofLifetime) }

    static func refusal(_ description: String) -> OAuthError {
        OAuthError(.invalidClientAttestation, description: description)
    }
}
