/// RFC 9449 §4.3 item 9: `htu` matches the request's URI (without query and fragment), so a proof captured at one
/// endpoint cannot be spent at another.
struct DPoPProofURICheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "dpop.proof-htu", group: .dpop, level: .must, source: .rfc(9449, "§4.3", "Checking DPoP Proofs"),
        summary: "A token request with a proof made for another URI of the same host is refused with invalid_dpop_proof")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try await DPoPSupport.advertised(in: session)
        guard let token = await session.endpoints().value?.token, let origin = URLParts.origin(token) else {
            return .skip("no token endpoint (see challenge.endpoints)")
        }
        let answer = try await DPoPSupport.redeem(
            in: session, key: DPoPClientKey(), uriOverride: origin + "/conform-not-the-token-endpoint").orSkip()
        return DPoPSupport.judgeRefused(answer, what: "for another URI")
    }
}
