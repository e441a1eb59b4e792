/// RFC 7636 §4.5–4.6: the right verifier redeems the code; the baseline the other PKCE checks break.
struct PKCEVerifiedCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "pkce.verified", group: .pkce, level: .must, source: .rfc(7636, "§4.6", "Server Verifies code_verifier"),
        summary: "The public client's code with S256 is redeemed with the right code_verifier")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try session.options.required(.publicClient)
        _ = try await session.endpoints().orSkip()
        let code: PartnerApp.Code
        switch await PartnerApp.code(in: session) {
        case .success(let found): code = found
        case .failure(let failure): return .fail(failure.reason)
        }
        switch await PartnerApp.redeem(code.code, verifier: code.verifier.value, in: session, as: .partnerApp) {
        case .failure(let failure): return .fail(failure.reason)
        case .success(let exchange):
            return exchange.response.status == 200 && exchange.accessToken != nil
                ? .pass("redeemed") : .fail("the redemption answered \(exchange.summary)")
        }
    }
}
