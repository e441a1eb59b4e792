/// RFC 9449 §4.3 item 7: jwk holds no private key; otherwise the proof proves nothing about the key the token would be bound to.
struct DPoPProofPrivateKeyCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "dpop.proof-private-key", group: .dpop, level: .must, source: .rfc(9449, "§4.3", "Checking DPoP Proofs"),
        summary: "A code redeemed with a proof whose jwk carries the private key is refused with invalid_dpop_proof")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try await DPoPSupport.advertised(in: session)
        let answer = try await DPoPSupport.redeem(in: session, key: DPoPClientKey(), flaw: .privateKeyInJWK).orSkip()
        return DPoPSupport.judgeRefused(answer, what: "whose jwk carries the private key")
    }
}
