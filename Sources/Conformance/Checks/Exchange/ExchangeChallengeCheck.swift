/// RFC 6750 §3: `/oauth/exchange` is a protected resource (it acts on the caller's access token), so a request
/// without one gets `401` with a Bearer challenge, as the rest of the host's resources do.
struct ExchangeChallengeCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "exchange.challenge", group: .exchange, level: .must, source: .rfc(6750, "§3", "The WWW-Authenticate Response Header Field"),
        summary: "POST /oauth/exchange without an access token answers 401 with a Bearer challenge (skipped when the host has no /oauth/exchange)")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = session.options.exchangeTarget?.id ?? "conform-target"
        let response = try await ExchangeEndpoint.request(target: target, authorization: nil, in: session, as: .attacker)
        let challenges = response.values("WWW-Authenticate").filter { $0.lowercased().hasPrefix("bearer") }
        guard response.status == 401, !challenges.isEmpty else {
            return .fail("without a token: \(response.status), WWW-Authenticate \(response.values("WWW-Authenticate"))")
        }
        return .pass("401 with the Bearer challenge")
    }
}
