/// RFC 9700 §4.8.2: a code bound to a challenge is not redeemed without the verifier (the downgrade attack).
struct PKCEDowngradeCheck: ConformanceCheck {
    static let id = "pkce.downgrade"
    static let group = CheckGroup.pkce
    static let level = CheckLevel.must
    static let source = SourceCitation.rfc(9700, "§4.8.2", "PKCE Downgrade Attack")
    static let summary = "The public client's code issued with code_challenge and redeemed without code_verifier is refused"

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        guard session.options.publicClient != nil else { return .skip("needs --public-client-id and --public-redirect-uri") }
        let code = try await PartnerApp.code(in: session).orSkip()
        switch await PartnerApp.redeem(code.code, verifier: nil, in: session, as: .attacker) {
        case .failure(let failure): return .fail(failure.reason)
        case .success(let exchange):
            return exchange.response.status == 400 ? .pass("refused: \(exchange.summary)") : .fail("the redemption without verifier answered \(exchange.summary)")
        }
    }
}
