import SignInProtocol

/// RFC 9449 §5: a token bound to the proof's key is issued with `token_type` `DPoP`, so the client knows to prove
/// possession with it; §6.1: a JWT access token names the key in `cnf.jkt`.
struct DPoPTokenTypeCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "dpop.token-type", group: .dpop, level: .must, source: .rfc(9449, "§5", "DPoP Access Token Request"),
        summary: "A code redeemed with a valid proof gets token_type DPoP (and a JWT access token's cnf.jkt is the proof key's thumbprint)")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try await DPoPSupport.advertised(in: session)
        let bound = try await DPoPSupport.boundTokens(in: session).orSkip()
        let type = bound.answer.exchange.json?["token_type"]?.stringValue ?? "missing"
        // RFC 6749 §7.1: the token type is compared without regard to case.
        guard type.lowercased() == "dpop" else { return .fail("token_type is \(type), not DPoP") }
        if let claims = TokenForgery.split(bound.accessToken)?.claims, case .object(let confirmation)? = claims["cnf"],
            let jkt = confirmation["jkt"]?.stringValue, jkt != bound.key.thumbprint
        {
            return .fail("the access token's cnf.jkt \(jkt) is not the proof key's thumbprint \(bound.key.thumbprint)")
        }
        return .pass("token_type DPoP" + (bound.answer.usedNonce ? " (after the host's DPoP-Nonce)" : ""))
    }
}
