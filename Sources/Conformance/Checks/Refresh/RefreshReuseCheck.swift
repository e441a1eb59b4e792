/// RFC 9700 §4.14.2: when a rotated refresh token is used again, one of two parties is an attacker, so the host
/// refuses it and revokes the token's whole family, including the newer refresh token.
struct RefreshReuseCheck: ConformanceCheck {
    static let id = "refresh.reuse-detection"
    static let group = CheckGroup.refresh
    static let level = CheckLevel.should
    static let source = SourceCitation.rfc(9700, "§4.14.2", "Refresh Token Protection: Recommendations")
    static let summary = "A rotated refresh token used again is refused (invalid_grant) and the newer refresh token is revoked with it"

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        try await RefreshExperiment.run(in: session).orSkip().judgeReuse()
    }
}
