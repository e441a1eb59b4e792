/// Draft §7.5: "the Authorization Server MUST verify that the value of [client_id] is the same as the client_id
/// value in the sub claim of the Client Attestation".
struct AttestationClientIDCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "attestation.client-id", group: .attestation, level: .must, source: ClientAttestation.draft("§7.5", "Client Attestation as an OAuth Client Authentication"),
        summary: "A valid attestation sent with another client's client_id is refused with invalid_client")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try await ClientAttestation.target(in: session)
        guard let other = session.options.publicClient?.id, other != target.clientID else {
            return .skip("needs --public-client-id naming another client than --attested-client-id")
        }
        let (attestation, pop) = await ClientAttestation.validPair(target, in: session)
        let answer = try await ClientAttestation.send(target, attestation: attestation, pop: pop, clientID: other, in: session, as: .attacker)
        return ClientAttestation.judgeRefused(answer, what: "the attestation with client_id=\(other)")
    }
}
