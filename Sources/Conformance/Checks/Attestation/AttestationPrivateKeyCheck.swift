import Crypto

/// Draft §7.1 item 5: the key in the attestation's `cnf` is not a private key (an attester that leaks the
/// instance's private key has attested nothing).
struct AttestationPrivateKeyCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "attestation.private-cnf", group: .attestation, level: .must, source: ClientAttestation.draft("§7.1", "Verification of the Client Attestation JWT"),
        summary: "An attestation whose cnf jwk carries the private key d is refused with invalid_client")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try await ClientAttestation.target(in: session)
        let instance = P256.Signing.PrivateKey()
        let attestation = AttestationJWT.attestation(subject: target.clientID, instance: instance, signedBy: target.attester, privateCnf: true)
        let pop = AttestationJWT.pop(audience: target.issuer, challenge: await ClientAttestation.challenge(target, in: session), signedBy: instance)
        let answer = try await ClientAttestation.send(target, attestation: attestation, pop: pop, in: session, as: .attacker)
        return ClientAttestation.judgeRefused(answer, what: "an attestation with a private cnf key")
    }
}
