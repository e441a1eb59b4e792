/// RFC 9110 §11.1: the scheme is case-insensitive, so `bearer` is `Bearer`: a bad token under it gets the challenge
/// like any bad token, and the host's own token under it is accepted (a refusal there is a warning).
struct LowercaseSchemeCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "unauthorized.lowercase-scheme", group: .unauthorized, level: .must, source: .rfc(9110, "§11.1", "Authentication Scheme"),
        summary: "'Authorization: bearer <junk>' gets 401 with the challenge; 'bearer <the host's token>' is accepted")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let junk = ChallengeAnswer.judge(
            await session.resource(authorizations: ["bearer conform-not-a-token"], as: .attacker),
            what: "lower-case scheme with a junk token", in: session)
        guard case .pass = junk else { return junk }
        guard let token = await session.officeTokens().value?.accessToken else {
            return .pass("junk refused with the challenge; the host's own token not tried (no Office token)")
        }
        switch await session.resource(authorizations: ["bearer " + token]) {
        case .failure(let failure): return .fail(failure.reason)
        case .success(let response) where response.status == 200:
            return .pass("junk refused with the challenge; the host's token accepted under 'bearer'")
        case .success(let response):
            return .warn("the host's own token under 'bearer' answered \(response.status): the scheme is case-insensitive")
        }
    }
}
