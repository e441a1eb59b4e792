/// RFC 9449 §11.1: the server remembers each proof's `jti` for as long as it would accept the proof, and refuses it
/// a second time; otherwise a proof captured in transit buys tokens again.
struct DPoPProofReplayCheck: ConformanceCheck {
    static let id = "dpop.proof-replay"
    static let group = CheckGroup.dpop
    static let level = CheckLevel.should
    static let source = SourceCitation.rfc(9449, "§11.1", "DPoP Proof Replay")
    static let summary = "A proof that was accepted once, sent again with another code, is refused"

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try await DPoPSupport.advertised(in: session)
        let first = try await DPoPSupport.redeem(in: session, key: DPoPClientKey()).orSkip()
        guard first.response.status == 200 else { return .skip("the first redemption answered \(first.exchange.summary)") }
        let code = try await PartnerApp.code(in: session).orSkip()
        guard let client = session.options.publicClient, let endpoint = await session.endpoints().value?.token else {
            return .skip("no token endpoint")
        }
        let fields = [
            ("grant_type", "authorization_code"), ("code", code.code), ("redirect_uri", client.redirectURI),
            ("code_verifier", code.verifier.value), ("client_id", client.id),
        ]
        let replay: ObservedResponse
        do {
            replay = try await session.http.send(.form(endpoint, fields, headers: [(name: "DPoP", value: first.proof)]), as: .attacker)
        } catch {
            return .skip("the token endpoint did not answer: \(error)")
        }
        let exchange = TokenExchange(response: replay)
        if exchange.accessToken != nil { return .fail("the same proof was accepted twice: tokens were issued again") }
        return replay.status == 400
            ? .pass("the replayed proof is refused (\(exchange.summary))")
            : .fail("the replayed proof answered \(exchange.summary), not 400")
    }
}
