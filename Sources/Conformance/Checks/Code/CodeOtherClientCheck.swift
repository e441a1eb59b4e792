/// RFC 6749 §4.1.3: the server MUST "ensure that the authorization code was issued to the authenticated confidential
/// client"; otherwise a code for one client (here the partner app's) is spent by another that has its own secret.
struct CodeOtherClientCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "code.other-client", group: .code, level: .must, source: .rfc(6749, "§4.1.3", "Access Token Request"),
        summary: "A code issued to the public client and redeemed by Office's confidential client (with its secret) is refused")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        guard session.options.office != nil, let partner = session.options.publicClient else {
            return .skip("needs both clients (--client-id and --public-client-id)")
        }
        let code = try await PartnerApp.code(in: session).orSkip()
        let result = await session.officeTokenRequest(
            [("grant_type", "authorization_code"), ("code", code.code), ("redirect_uri", partner.redirectURI),
             ("code_verifier", code.verifier.value)], as: .attacker)
        return TokenRefusal.judge(result, what: "the partner app's code redeemed by Office's client")
    }
}
