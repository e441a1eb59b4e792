import SignInProtocol

/// RFC 7636 §4.1: a verifier is 43 to 128 characters of A-Z a-z 0-9 - . _ ~; a short one is guessable, so a host
/// should refuse a verifier outside that syntax even when it hashes to the challenge.
struct PKCEVerifierSyntaxCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "pkce.verifier-syntax", group: .pkce, level: .should, source: .rfc(7636, "§4.1", "Client Creates a Code Verifier"),
        summary: "A code_verifier of 42 characters, or with a character outside the unreserved set, is refused even though it matches its S256 challenge")

    static let probes = [
        ("42 characters", String(repeating: "a", count: 42)),
        ("a '+' and a '/'", String(repeating: "b", count: 41) + "+/"),
    ]

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try session.options.required(.publicClient)
        _ = try await session.endpoints().orSkip()
        var refused = [String]()
        for (what, verifier) in Self.probes {
            switch await PartnerApp.code(in: session, challenge: PKCE.s256(verifier)) {
            case .failure(let failure) where failure.unanswered: return .skip(failure.reason)
            case .failure: refused.append("\(what): no code")
            case .success(let code):
                let outcome = TokenRefusal.judge(
                    await PartnerApp.redeem(code, verifier: verifier, in: session, as: .attacker), what: "a verifier of \(what)")
                guard case .pass(let detail) = outcome else { return outcome }
                refused.append("\(what): \(detail)")
            }
        }
        return .pass(refused.joined(separator: "; "))
    }
}
