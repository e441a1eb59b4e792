/// OpenID Connect Core 1.0 §5.3.3: userinfo's errors are RFC 6750 §3 bearer challenges; §5.3.2: with the access
/// token it answers the user's claims, whose `sub` MUST be the ID token's (or a token swap goes unnoticed).
struct UserInfoCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "openid.userinfo", group: .openid, level: .must, source: .openID("core", "§5.3 (UserInfo Endpoint)", anchor: "UserInfo"),
        summary: "userinfo without a token answers 401 with a Bearer challenge; with the openid access token, the ID token's sub")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let metadata = try await OpenIDSignIn.discovery(in: session)
        guard let userinfo = metadata["userinfo_endpoint"]?.stringValue else { return .skip("discovery names no userinfo_endpoint") }
        if let problem = session.endpointProblem(userinfo) { return .fail("userinfo_endpoint: \(problem)") }
        let anonymous: ObservedResponse
        do {
            anonymous = try await session.http.send(.init(url: userinfo), as: .attacker)
        } catch {
            return .fail("userinfo did not answer: \(error)")
        }
        guard anonymous.status == 401, anonymous.values("WWW-Authenticate").contains(where: { $0.lowercased().hasPrefix("bearer") }) else {
            return .fail("without a token: \(anonymous.status), WWW-Authenticate \(anonymous.values("WWW-Authenticate"))")
        }
        let signIn = try await OpenIDSignIn.pair(in: session).orSkip()[0]
        guard let token = signIn.exchange.accessToken, let sub = signIn.claims?["sub"]?.stringValue else {
            return .pass("401 with the Bearer challenge; no ID token to compare sub with")
        }
        let response: ObservedResponse
        do {
            response = try await session.http.send(.init(url: userinfo, headers: [(name: "Authorization", value: "Bearer " + token)]), as: .partnerApp)
        } catch {
            return .fail("userinfo did not answer: \(error)")
        }
        guard response.status == 200 else { return .fail("with the access token: \(response.status)") }
        let found = JSONObject.parse(response.body)?["sub"]?.stringValue
        return found == sub ? .pass("401 with the challenge; sub matches the ID token") : .fail("userinfo sub \(found ?? "missing") is not the ID token's \(sub)")
    }
}
