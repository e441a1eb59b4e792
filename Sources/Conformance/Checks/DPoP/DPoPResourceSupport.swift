/// The protected resource the DPoP checks present the bound token to: discovery's `userinfo_endpoint`.
enum DPoPResource {
    static func userinfo(in session: ConformanceSession) async throws(CheckSkipped) -> String {
        guard let userinfo = await session.discovery().value?["userinfo_endpoint"]?.stringValue else {
            throw CheckSkipped("discovery names no userinfo_endpoint to present the DPoP-bound token to")
        }
        return userinfo
    }

    /// `GET userinfo` with `Authorization: <scheme> <token>` and, when `proofBy` is given, a proof by that key
    /// (with `ath` unless `withoutHash`).
    static func get(
        _ userinfo: String, scheme: String, token: String, proofBy key: DPoPClientKey?, withoutHash: Bool = false,
        in session: ConformanceSession, as party: Party
    ) async throws(CheckSkipped) -> ObservedResponse {
        let authorization = (name: "Authorization", value: scheme + " " + token)
        guard let key else {
            do {
                return try await session.http.send(.init(url: userinfo, headers: [authorization]), as: party)
            } catch {
                throw CheckSkipped("userinfo did not answer: \(error)")
            }
        }
        return try await DPoPSupport.send(
            { proof in .init(url: userinfo, headers: [authorization, (name: "DPoP", value: proof)]) },
            proof: { nonce in key.proof(method: "GET", uri: userinfo, accessToken: withoutHash ? nil : token, nonce: nonce) },
            in: session, as: party
        ).orSkip().response
    }
}
