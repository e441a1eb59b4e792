/// RFC 9126 §2: the PAR endpoint authenticates a confidential client as the token endpoint does (RFC 6749 §2.3);
/// otherwise anyone could push requests in the client's name.
struct PARClientAuthenticationCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "par.client-authentication", group: .par, level: .must, source: .rfc(9126, "§2", "Pushed Authorization Request Endpoint"),
        summary: "A push for Office's confidential client without its secret is refused with invalid_client")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try await PushedAuthorization.target(in: session)
        let pushed = try await PushedAuthorization.push(
            PushedAuthorization.officeFields(target, in: session).fields, to: target, authenticated: false, in: session, as: .attacker)
        guard pushed.requestURI == nil else { return .fail("a push without the client secret got a request_uri") }
        // RFC 6749 §5.2: invalid_client, 401 when the client tried to authenticate with a scheme (400 allowed otherwise).
        return [400, 401].contains(pushed.response.status) && pushed.error == "invalid_client"
            ? .pass("refused: \(pushed.summary)")
            : .fail("refused with \(pushed.summary), not invalid_client")
    }
}
