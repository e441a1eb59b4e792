import Crypto

/// Draft §7.1 item 4: the attestation's signature verifies with the key of a known and trusted attester.
struct AttestationUntrustedAttesterCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "attestation.untrusted-attester", group: .attestation, level: .must, source: ClientAttestation.draft("§7.1", "Verification of the Client Attestation JWT"),
        summary: "An attestation signed by a key the host does not trust is refused with invalid_client")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try await ClientAttestation.target(in: session)
        let instance = P256.Signing.PrivateKey()
        let attestation = AttestationJWT.attestation(subject: target.clientID, instance: instance, signedBy: P256.Signing.PrivateKey())
        let pop = AttestationJWT.pop(audience: target.issuer, challenge: await ClientAttestation.challenge(target, in: session), signedBy: instance)
        let answer = try await ClientAttestation.send(target, attestation: attestation, pop: pop, in: session, as: .attacker)
        return ClientAttestation.judgeRefused(answer, what: "an unknown attester's attestation")
    }
}
