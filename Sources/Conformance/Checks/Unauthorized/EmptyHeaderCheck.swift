/// RFC 6750 §3.1: an `Authorization` field with no value carries no credential, so it gets the plain challenge
/// (and, lacking authentication information, no error code), never a 400 or 500 that stops Office's sign-in.
struct EmptyHeaderCheck: ConformanceCheck {
    static let id = "unauthorized.empty-header"
    static let group = CheckGroup.unauthorized
    static let level = CheckLevel.must
    static let source = SourceCitation.rfc(6750, "§3.1", "Error Codes")
    static let summary = "'Authorization:' with an empty value gets 401 with the challenge, without an error code"

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        ChallengeAnswer.judge(
            await session.resource(authorizations: [""], as: .attacker), what: "empty Authorization", in: session,
            lacksCredentials: true)
    }
}
