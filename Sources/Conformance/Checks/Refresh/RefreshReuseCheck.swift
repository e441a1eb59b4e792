/// RFC 9700 §4.14.2: when a rotated refresh token is used again, one of two parties is an attacker, so the host
/// refuses it and revokes the token's whole family, including the newer refresh token.
struct RefreshReuseCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "refresh.reuse-detection", group: .refresh, level: .should, source: .rfc(9700, "§4.14.2", "Refresh Token Protection: Recommendations"),
        summary: "A rotated refresh token used again is refused (invalid_grant) and the newer refresh token is revoked with it")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        try await RefreshExperiment.run(in: session).orSkip().judgeReuse()
    }
}
