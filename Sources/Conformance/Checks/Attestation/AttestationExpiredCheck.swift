import Crypto

/// Draft §4: "MUST reject any JWT with an expiration time that has passed".
struct AttestationExpiredCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "attestation.expired", group: .attestation, level: .must, source: ClientAttestation.draft("§4", "Client Attestation JWT"),
        summary: "An attestation that expired an hour ago is refused with invalid_client")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try await ClientAttestation.target(in: session)
        let instance = P256.Signing.PrivateKey()
        let attestation = AttestationJWT.attestation(subject: target.clientID, instance: instance, signedBy: target.attester, expiresIn: -3600)
        let pop = AttestationJWT.pop(audience: target.issuer, challenge: await ClientAttestation.challenge(target, in: session), signedBy: instance)
        let answer = try await ClientAttestation.send(target, attestation: attestation, pop: pop, in: session, as: .attacker)
        return ClientAttestation.judgeRefused(answer, what: "the expired attestation")
    }
}
