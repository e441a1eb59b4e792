/// RFC 6749 §4.1.2: an exchange code of `type=code` is an authorization code of the target client, so the host
/// "MUST deny" its second redemption; the answer also says how long it lives (`expires_in`).
struct ExchangeSingleUseCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "exchange.single-use", group: .exchange, level: .must, source: .rfc(6749, "§4.1.2", "Authorization Response"),
        summary: "An exchange code made from the public client's token is redeemed once by the target client and refused the second time")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let target = try session.options.required(.exchangeTarget)
        let code = try await PartnerApp.code(in: session).orSkip()
        let issued = try await PartnerApp.redeem(code.code, verifier: code.verifier.value, in: session, as: .partnerApp).orSkip()
        guard let token = issued.accessToken else { return .skip("the public client got no access token (\(issued.summary))") }
        let answer = try await ExchangeEndpoint.request(target: target.id, authorization: "Bearer " + token, in: session, as: .partnerApp)
        let json = JSONObject.parse(answer.body)
        guard answer.status == 200, let exchangeCode = json?["code"]?.stringValue else {
            return .skip("no exchange code for \(target.id): \(answer.status)")
        }
        guard let endpoint = await session.endpoints().value?.token else { return .skip("no token endpoint") }
        var results = [TokenExchange]()
        for party in [Party.office, .attacker] {
            let fields = [("grant_type", "authorization_code"), ("code", exchangeCode), ("client_id", target.id), ("client_secret", target.secret)]
            do {
                results.append(TokenExchange(response: try await session.http.send(.form(endpoint, fields), as: party)))
            } catch {
                return .skip("the token endpoint did not answer: \(error)")
            }
        }
        guard results[0].response.status == 200 else { return .skip("the first redemption answered \(results[0].summary)") }
        var lifetime = "no numeric expires_in"
        if case .integer(let seconds) = json?["expires_in"] { lifetime = "expires_in \(seconds) s" }
        return TokenRefusal.judge(.success(results[1]), what: "the second redemption").withDetail(lifetime)
    }
}
