/// Draft §7.5: an attestation from a trusted attester with its instance's proof authenticates the client at the
/// token endpoint (which then judges the grant: a code it never issued is `invalid_grant`).
struct AttestationAcceptedCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "attestation.accepted", group: .attestation, level: .must, source: ClientAttestation.draft("§7.5", "Client Attestation as an OAuth Client Authentication"),
        summary: "A valid attestation and PoP authenticate the client (its made-up code then gets invalid_grant)")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try await ClientAttestation.target(in: session)
        let (attestation, pop) = await ClientAttestation.validPair(target, in: session)
        let answer = try await ClientAttestation.send(target, attestation: attestation, pop: pop, in: session)
        // Any grant error (400, not a client error) shows the client was authenticated first.
        guard answer.response.status == 400, let error = answer.error, !ClientAttestation.refusals.contains(error) else {
            return .fail("the valid attestation answered \(answer.summary), not a grant error")
        }
        return .pass("authenticated; the made-up code got 400 \(error)")
    }
}
