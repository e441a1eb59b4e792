import SignInProtocol

/// RFC 9700 §2.1.1: clients use S256, the method that keeps the verifier out of the authorization request; a host
/// that advertises only S256 and still honours `plain` lets anyone who saw the request redeem the code.
struct PKCEPlainRefusedCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "pkce.plain-refused", group: .pkce, level: .must, source: .rfc(9700, "§2.1.1", "Authorization Code Grant"),
        summary: "Where the metadata does not list plain, a code_challenge_method=plain request gets no code that redeems")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try session.options.required(.publicClient)
        _ = try await session.endpoints().orSkip()
        let methods = await session.advertised("code_challenge_methods_supported")
        if methods.contains("plain") { return .skip("the host advertises plain in code_challenge_methods_supported") }
        let verifier = PKCE.Verifier.random().value
        switch await PartnerApp.signIn(in: session, challenge: verifier, method: .plain) {
        case .failure(let failure) where failure.unanswered: return .skip(failure.reason)
        case .failure(let failure): return .pass("no code for plain (\(failure.reason))")
        case .success(let outcome):
            guard let code = outcome.code else { return .pass("refused with error=\(outcome.parameters["error"] ?? "none")") }
            return TokenRefusal.judge(
                await PartnerApp.redeem(code, verifier: verifier, in: session, as: .attacker),
                what: "the plain challenge's code redeemed with the challenge itself")
        }
    }
}
