/// RFC 9449 §5: a refresh token issued to a public client with a proof is bound to the proof's key, and the binding
/// is checked at each refresh; a public client has no secret, so the key is all that stops a stolen refresh token.
struct DPoPRefreshBindingCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "dpop.public-refresh-bound", group: .dpop, level: .must, source: .rfc(9449, "§5", "DPoP Access Token Request"),
        summary: "The public client's DPoP refresh token is refused with another key's proof and without a proof, and works with its own key")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try await DPoPSupport.advertised(in: session)
        let key = DPoPClientKey()
        let issued = try await DPoPSupport.redeem(in: session, key: key).orSkip()
        guard issued.response.status == 200 else { return .skip("the redemption answered \(issued.exchange.summary)") }
        guard let refreshToken = issued.exchange.refreshToken else { return .skip("no refresh_token was issued to the public client") }
        let fields = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        let thief = try await refresh(fields, proofBy: DPoPClientKey(), in: session, as: .attacker).orSkip()
        if thief.exchange.accessToken != nil { return .fail("the refresh token worked with another key's proof") }
        let bare = try await PartnerApp.tokenRequest(fields, in: session, as: .attacker).orSkip()
        if bare.accessToken != nil { return .fail("the refresh token worked without a proof") }
        let owner = try await refresh(fields, proofBy: key, in: session, as: .partnerApp).orSkip()
        guard owner.response.status == 200, owner.exchange.accessToken != nil else {
            return .fail("refused with another key (\(thief.exchange.summary)) but also with its own key: \(owner.exchange.summary)")
        }
        return .pass("another key: \(thief.exchange.summary); no proof: \(bare.summary); its own key: 200")
    }

    private func refresh(
        _ fields: [(String, String)], proofBy key: DPoPClientKey, in session: ConformanceSession, as party: Party
    ) async -> Result<DPoPAnswer, StepFailure> {
        guard let client = session.options.publicClient, let endpoint = await session.endpoints().value?.token else {
            return .failure(StepFailure("no token endpoint"))
        }
        return await DPoPSupport.send(
            { proof in .form(endpoint, fields + [("client_id", client.id)], headers: [(name: "DPoP", value: proof)]) },
            proof: { nonce in key.proof(method: "POST", uri: endpoint, nonce: nonce) }, in: session, as: party)
    }
}
