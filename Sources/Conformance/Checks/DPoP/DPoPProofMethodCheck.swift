/// RFC 9449 §4.3 item 8: `htm` matches the request's method, so a proof made for one request cannot serve another.
struct DPoPProofMethodCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "dpop.proof-htm", group: .dpop, level: .must, source: .rfc(9449, "§4.3", "Checking DPoP Proofs"),
        summary: "A token request (POST) with a proof made for GET is refused with invalid_dpop_proof")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try await DPoPSupport.advertised(in: session)
        let answer = try await DPoPSupport.redeem(in: session, key: DPoPClientKey(), method: "GET").orSkip()
        return DPoPSupport.judgeRefused(answer, what: "with htm GET")
    }
}
