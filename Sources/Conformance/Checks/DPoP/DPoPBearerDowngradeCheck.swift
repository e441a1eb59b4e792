/// RFC 9449 §7.1 and §7.2: a DPoP-bound token is only good with a proof of its key; sent as a plain `Bearer` token it
/// is refused, or a stolen bound token would work as an unbound one.
struct DPoPBearerDowngradeCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "dpop.bound-as-bearer", group: .dpop, level: .must, source: .rfc(9449, "§7.2", "Compatibility with the Bearer Authentication Scheme"),
        summary: "The DPoP-bound access token sent to userinfo as Authorization: Bearer, without a proof, is refused with 401")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try await DPoPSupport.advertised(in: session)
        let userinfo = try await DPoPResource.userinfo(in: session)
        let bound = try await DPoPSupport.boundTokens(in: session).orSkip()
        let answer = try await DPoPResource.get(userinfo, scheme: "Bearer", token: bound.accessToken, proofBy: nil, in: session, as: .attacker)
        return answer.status == 401
            ? .pass("401 for the bound token as Bearer")
            : .fail("the bound token as Bearer answered \(answer.status)")
    }
}
