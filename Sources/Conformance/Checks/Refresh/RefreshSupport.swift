extension ConformanceSession {
    /// A refresh with Office's client (RFC 6749 §6).
    func refresh(_ refreshToken: String, as party: Party = .office) async -> Result<TokenExchange, StepFailure> {
        await officeTokenRequest([("grant_type", "refresh_token"), ("refresh_token", refreshToken)], as: party)
    }
}

/// The experiment both refresh checks read: refresh once, then (if the token rotated) replay the old refresh token
/// as an attacker and try the new one after it.
struct RefreshExperiment: Sendable {
    var old: String
    var rotated: TokenExchange
    /// nil when the host did not rotate.
    var replay: TokenExchange?
    var newAfterReplay: TokenExchange?

    static func run(in session: ConformanceSession) async -> Result<RefreshExperiment, StepFailure> {
        await session.remembered("refresh") { await experiment(in: session) }
    }

    private static func experiment(in session: ConformanceSession) async -> Result<RefreshExperiment, StepFailure> {
        let first: TokenExchange
        switch await session.freshOfficeTokens() {
        case .success(let found): first = found.1
        case .failure(let failure): return .failure(failure)
        }
        guard let old = first.refreshToken else { return .failure(StepFailure("no refresh_token was issued")) }
        let rotated: TokenExchange
        switch await session.refresh(old) {
        case .success(let found): rotated = found
        case .failure(let failure): return .failure(failure)
        }
        var result = RefreshExperiment(old: old, rotated: rotated)
        guard rotated.response.status == 200, let new = rotated.refreshToken, new != old else { return .success(result) }
        result.replay = await session.refresh(old, as: .attacker).value
        result.newAfterReplay = await session.refresh(new).value
        return .success(result)
    }
}
