/// A token past its `exp` must be refused (RFC 7519 §4.1.4). The suite cannot wait for the host's token to expire,
/// so it moves `exp` an hour back: the host must refuse it for the expiry or for the signature that no longer fits.
struct ExpiredTokenCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "unauthorized.expired-token", group: .unauthorized, level: .must, source: .rfc(7519, "§4.1.4", "exp"),
        summary: "The host's own access token with exp an hour in the past gets 401 with the challenge")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        guard let token = try await session.officeTokens().orSkip().accessToken else {
            return .skip("no access token was issued")
        }
        guard let expired = TokenForgery.expired(token) else {
            return .skip("the access token is opaque (not a JWT): an expired one cannot be made without waiting")
        }
        return ChallengeAnswer.judge(
            await session.bootstrap(authorization: "Bearer " + expired, as: .attacker), what: "expired token", in: session)
    }
}
