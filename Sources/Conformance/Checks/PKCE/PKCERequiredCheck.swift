/// RFC 9700 §2.1.1: public clients MUST use PKCE, and the server must refuse them a code without it.
struct PKCERequiredCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "pkce.required", group: .pkce, level: .must, source: .rfc(9700, "§2.1.1", "Authorization Code Grant"),
        summary: "The public client's authorize request without code_challenge gets no code")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try session.options.required(.publicClient)
        _ = try await session.endpoints().orSkip()
        switch await PartnerApp.signIn(in: session, withPKCE: false) {
        case .failure(let failure) where failure.unanswered: return .skip(failure.reason)
        case .failure(let failure): return .pass("no code without PKCE (\(failure.reason))")
        case .success(let (outcome, _)):
            if outcome.code != nil { return .fail("a code was issued to the public client without code_challenge") }
            return .pass("refused with error=\(outcome.parameters["error"] ?? "none")")
        }
    }
}
