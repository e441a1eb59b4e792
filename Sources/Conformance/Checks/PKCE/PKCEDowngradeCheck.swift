import SignInProtocol

/// RFC 9700 §4.8.2: a token request with `code_verifier` for a code issued without `code_challenge` MUST be refused;
/// otherwise an attacker who stole a code strips the challenge from the victim's authorize request and redeems it.
struct PKCEDowngradeCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "pkce.downgrade", group: .pkce, level: .must, source: .rfc(9700, "§4.8.2", "PKCE Downgrade Attack"),
        summary: "A code issued without code_challenge (Office's client) and redeemed with a code_verifier is refused")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        guard session.options.office != nil else { return .skip("needs --client-id and --redirect-uri (a client that may omit PKCE)") }
        let outcome = try await session.freshOfficeSignIn().orSkip()
        guard let code = outcome.code else { return .skip("the sign-in gave no code") }
        let result = await session.redeemOfficeCode(
            code, signIn: outcome, as: .attacker, extra: [("code_verifier", PKCE.Verifier.random().value)])
        return TokenRefusal.judge(result, what: "the code without a challenge redeemed with a verifier")
    }
}
