/// RFC 6750 §3.1: an `Authorization` field with no value carries no credential, so it gets the plain challenge
/// (and, lacking authentication information, no error code), never a 400 or 500 that stops Office's sign-in.
struct EmptyHeaderCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "unauthorized.empty-header", group: .unauthorized, level: .must, source: .rfc(6750, "§3.1", "Error Codes"),
        summary: "'Authorization:' with an empty value gets 401 with the challenge, without an error code")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        ChallengeAnswer.judge(
            await session.resource(authorizations: [""], as: .attacker), what: "empty Authorization", in: session,
            lacksCredentials: true)
    }
}
