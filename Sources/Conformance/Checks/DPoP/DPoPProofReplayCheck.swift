/// RFC 9449 §11.1: the server remembers each proof's `jti` for as long as it would accept the proof, and refuses it
/// a second time; otherwise a proof captured in transit buys tokens again.
struct DPoPProofReplayCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "dpop.proof-replay", group: .dpop, level: .should, source: .rfc(9449, "§11.1", "DPoP Proof Replay"),
        summary: "A proof that was accepted once, sent again with another code, is refused")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try await DPoPSupport.advertised(in: session)
        let first = try await DPoPSupport.redeem(in: session, key: DPoPClientKey()).orSkip()
        guard first.response.status == 200 else { return .skip("the first redemption answered \(first.exchange.summary)") }
        let code = try await PartnerApp.code(in: session).orSkip()
        let exchange = try await PartnerApp.redeem(
            code.code, verifier: code.verifier.value, in: session, as: .attacker, headers: [(name: "DPoP", value: first.proof)]
        ).orSkip()
        if exchange.accessToken != nil { return .fail("the same proof was accepted twice: tokens were issued again") }
        return exchange.response.status == 400
            ? .pass("the replayed proof is refused (\(exchange.summary))")
            : .fail("the replayed proof answered \(exchange.summary), not 400")
    }
}
