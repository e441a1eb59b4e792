/// RFC 6750 §3.1 (`invalid_request`: a request that "repeats the same parameter"): two `Authorization` fields, one
/// with the host's token and one with junk, are refused; a host that picks one lets a proxy and the app disagree.
struct TwoHeadersCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "unauthorized.two-headers", group: .unauthorized, level: .must, source: .rfc(6750, "§3.1", "invalid_request"),
        summary: "Two Authorization fields (a junk token and the host's own) are refused with 400 or 401, never 200")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let token = await session.officeTokens().value?.accessToken ?? TokenForgery.lookalike("conform-token-lookalike")
        let result = await session.resource(authorizations: ["Bearer conform-not-a-token", "Bearer " + token], as: .attacker)
        switch result {
        case .failure(let failure): return .fail(failure.reason)
        case .success(let response) where response.status == 400: return .pass("400")
        case .success:
            return ChallengeAnswer.judge(result, what: "two Authorization fields", in: session)
        }
    }
}
