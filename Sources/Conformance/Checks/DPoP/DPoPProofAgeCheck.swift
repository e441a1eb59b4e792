import Foundation

/// RFC 9449 §4.3 item 11: the proof was made within an acceptable window, judged by `iat` or by the server's nonce;
/// §11.1: without it a proof captured once could be used for as long as the key lives.
struct DPoPProofAgeCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "dpop.proof-iat", group: .dpop, level: .must, source: .rfc(9449, "§4.3", "Checking DPoP Proofs"),
        summary: "A token request with a proof issued an hour ago is refused with invalid_dpop_proof (unless a fresh server nonce vouches for it)")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try await DPoPSupport.advertised(in: session)
        let answer = try await DPoPSupport.redeem(
            in: session, key: DPoPClientKey(), issuedAt: Date().addingTimeInterval(-3600)).orSkip()
        if answer.usedNonce, answer.exchange.accessToken != nil {
            return .pass("info: the host judged freshness by its nonce, which §4.3 allows")
        }
        return DPoPSupport.judgeRefused(answer, what: "issued an hour ago")
    }
}
