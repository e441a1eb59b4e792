import Crypto

/// Draft §7.2 item 4: the PoP's signature verifies with the key in the attestation's `cnf`, so a stolen attestation
/// is useless without its instance's private key.
struct AttestationPoPKeyCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "attestation.pop-key", group: .attestation, level: .must, source: ClientAttestation.draft("§7.2", "Verification of the Client Attestation PoP JWT"),
        summary: "A PoP signed by another key than the attestation's cnf is refused with invalid_client")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try await ClientAttestation.target(in: session)
        let attestation = AttestationJWT.attestation(subject: target.clientID, instance: P256.Signing.PrivateKey(), signedBy: target.attester)
        let pop = AttestationJWT.pop(
            audience: target.issuer, challenge: await ClientAttestation.challenge(target, in: session), signedBy: P256.Signing.PrivateKey())
        let answer = try await ClientAttestation.send(target, attestation: attestation, pop: pop, in: session, as: .attacker)
        return ClientAttestation.judgeRefused(answer, what: "a PoP by another key")
    }
}
