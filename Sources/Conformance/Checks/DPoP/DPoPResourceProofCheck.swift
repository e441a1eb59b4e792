/// RFC 9449 §7.1 and §4.3 item 12: a resource accepts a DPoP-bound token only with a proof by the bound key whose
/// `ath` is the token's hash, and answers a bad proof with 401 and the `DPoP` challenge (§7.1).
struct DPoPResourceProofCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "dpop.resource-proof", group: .dpop, level: .must, source: .rfc(9449, "§7.1", "The DPoP Authentication Scheme"),
        summary: "userinfo answers the bound token with its key's proof and ath; without ath or with another key's proof it answers 401 with a DPoP challenge")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try await DPoPSupport.advertised(in: session)
        let userinfo = try await DPoPResource.userinfo(in: session)
        let bound = try await DPoPSupport.boundTokens(in: session).orSkip()
        let good = try await DPoPResource.get(userinfo, scheme: "DPoP", token: bound.accessToken, proofBy: bound.key, in: session, as: .partnerApp)
        guard good.status == 200 else { return .fail("with the bound key's proof and ath: \(good.status)") }
        var problems = [String]()
        for (what, key, withoutHash) in [("a proof without ath", bound.key, true), ("another key's proof", DPoPClientKey(), false)] {
            let refused = try await DPoPResource.get(
                userinfo, scheme: "DPoP", token: bound.accessToken, proofBy: key, withoutHash: withoutHash, in: session, as: .attacker)
            let challenged = refused.values("WWW-Authenticate").contains { $0.lowercased().hasPrefix("dpop") }
            if refused.status != 401 || !challenged {
                problems.append("\(what): \(refused.status), WWW-Authenticate \(refused.values("WWW-Authenticate"))")
            }
        }
        return problems.isEmpty
            ? .pass("200 with the key's proof; 401 with the DPoP challenge without ath and with another key")
            : .fail(problems.joined(separator: "; "))
    }
}
