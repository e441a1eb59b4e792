import Crypto

/// Draft §7.2 item 7: the PoP's `aud` is the authorization server's issuer identifier, so a PoP made for another
/// server cannot be replayed here.
struct AttestationPoPAudienceCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "attestation.pop-audience", group: .attestation, level: .must, source: ClientAttestation.draft("§7.2", "Verification of the Client Attestation PoP JWT"),
        summary: "A PoP whose aud is another server is refused with invalid_client")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try await ClientAttestation.target(in: session)
        let instance = P256.Signing.PrivateKey()
        let attestation = AttestationJWT.attestation(subject: target.clientID, instance: instance, signedBy: target.attester)
        let pop = AttestationJWT.pop(
            audience: "https://other-server.example", challenge: await ClientAttestation.challenge(target, in: session), signedBy: instance)
        let answer = try await ClientAttestation.send(target, attestation: attestation, pop: pop, in: session, as: .attacker)
        return ClientAttestation.judgeRefused(answer, what: "a PoP for another audience")
    }
}
