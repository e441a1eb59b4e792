/// RFC 9449 §4.3 item 6: the signature verifies with the key in jwk; otherwise the proof proves nothing about the key the token would be bound to.
struct DPoPProofSignatureCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "dpop.proof-signature", group: .dpop, level: .must, source: .rfc(9449, "§4.3", "Checking DPoP Proofs"),
        summary: "A code redeemed with a proof signed by another key than its jwk is refused with invalid_dpop_proof")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try await DPoPSupport.advertised(in: session)
        let answer = try await DPoPSupport.redeem(in: session, key: DPoPClientKey(), flaw: .signedByAnotherKey).orSkip()
        return DPoPSupport.judgeRefused(answer, what: "signed by another key than its jwk")
    }
}
