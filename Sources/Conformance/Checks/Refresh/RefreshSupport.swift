extension ConformanceSession {
    /// A refresh with Office's client (RFC 6749 §6).
    func refresh(_ refreshToken: String, as party: Party = .office) async -> Result<TokenExchange, StepFailure> {
        await officeTokenRequest([("grant_type", "refresh_token"), ("refresh_token", refreshToken)], as: party)
    }
}

/// The experiment the refresh checks read, once per client: refresh once, then (if the token rotated) replay the old
/// refresh token as an attacker and try the new one after it.
struct RefreshExperiment: Sendable {
    enum Client: String, Sendable {
        /// Office's confidential client.
        case office
        /// The partner app's public client (PKCE, no secret).
        case publicClient
    }

    /// The first token response (its `token_type` tells a DPoP-bound token).
    var issued: TokenExchange
    var old: String
    var rotated: TokenExchange
    /// nil when the host did not rotate.
    var replay: TokenExchange?
    var newAfterReplay: TokenExchange?

    static func run(in session: ConformanceSession, client: Client = .office) async -> Result<RefreshExperiment, StepFailure> {
        await session.remembered("refresh-" + client.rawValue) { await experiment(in: session, client: client) }
    }

    private static func issue(in session: ConformanceSession, client: Client) async -> Result<TokenExchange, StepFailure> {
        switch client {
        case .office: return await session.freshOfficeTokens().map(\.1)
        case .publicClient:
            switch await PartnerApp.code(in: session) {
            case .failure(let failure): return .failure(failure)
            case .success(let code): return await PartnerApp.redeem(code.code, verifier: code.verifier.value, in: session, as: .partnerApp)
            }
        }
    }

    private static func refresh(_ token: String, in session: ConformanceSession, client: Client, as party: Party) async -> Result<TokenExchange, StepFailure> {
        switch client {
        case .office: await session.refresh(token, as: party)
        case .publicClient: await PartnerApp.tokenRequest([("grant_type", "refresh_token"), ("refresh_token", token)], in: session, as: party)
        }
    }

    private static func experiment(in session: ConformanceSession, client: Client) async -> Result<RefreshExperiment, StepFailure> {
        let first: TokenExchange
        switch await issue(in: session, client: client) {
        case .success(let found): first = found
        case .failure(let failure): return .failure(failure)
        }
        guard let old = first.refreshToken else { return .failure(StepFailure("no refresh_token was issued")) }
        let rotated: TokenExchange
        switch await refresh(old, in: session, client: client, as: client == .office ? .office : .partnerApp) {
        case .success(let found): rotated = found
        case .failure(let failure): return .failure(failure)
        }
        var result = RefreshExperiment(issued: first, old: old, rotated: rotated)
        guard rotated.response.status == 200, let new = rotated.refreshToken, new != old else { return .success(result) }
        // A host that documents a grace window for the old token (a lost response retried) is held to it: the
        // replay comes once the declared window is over.
        let grace = session.options.refreshGraceSeconds
        if grace > 0 {
            session.announce("waiting out the declared refresh grace window (\(grace) s)…")
            try? await Task.sleep(for: .seconds(grace) + .milliseconds(500))
        }
        result.replay = await refresh(old, in: session, client: client, as: .attacker).value
        result.newAfterReplay = await refresh(new, in: session, client: client, as: client == .office ? .office : .partnerApp).value
        return .success(result)
    }

    /// The rotation rule, shared by both clients' checks.
    func judgeRotation() -> CheckOutcome {
        guard rotated.response.status == 200, rotated.accessToken != nil else { return .fail("the refresh answered \(rotated.summary)") }
        guard let new = rotated.refreshToken else { return .fail("no new refresh_token: the old one stays valid") }
        return new == old ? .fail("the same refresh_token came back") : .pass("rotated")
    }

    static let graceHint = " (a host with a documented grace window: give --refresh-grace-seconds)"

    /// The reuse-detection rule, shared by both clients' checks.
    func judgeReuse() -> CheckOutcome {
        guard let replay else { return .skip("the host does not rotate refresh tokens (see the rotation check)") }
        guard replay.response.status == 400, replay.error == "invalid_grant" else {
            return .fail("the old refresh token was accepted again: \(replay.summary)" + Self.graceHint)
        }
        guard let after = newAfterReplay else { return .fail("the newer refresh token got no answer") }
        return after.response.status == 200
            ? .fail("the newer refresh token still works after the replay: the family was not revoked")
            : .pass("replay refused and the family revoked (\(after.summary))")
    }
}
