/// RFC 6750 §2.3 and §5.3: a token in the URI ends up in logs and Referer headers, so it "SHOULD NOT be used"; a host
/// that takes only the header answers a query token as a request without credentials (no error code, §3.1).
struct QueryTokenCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "unauthorized.query-token", group: .unauthorized, level: .should, source: .rfc(6750, "§2.3", "URI Query Parameter"),
        summary: "The host's own token as ?access_token= (no Authorization) gets 401 with the challenge")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        guard let token = try await session.officeTokens().orSkip().accessToken else { return .skip("no access token was issued") }
        return ChallengeAnswer.judge(
            await session.resource(authorizations: [], query: [("access_token", token)], as: .attacker),
            what: "token in the query", in: session, lacksCredentials: true)
    }
}
