/// RFC 9700 §4.14.2: refresh tokens are rotated (a new one with each refresh) or bound to the client; rotation is
/// what lets the host notice a stolen one.
struct RefreshRotationCheck: ConformanceCheck {
    static let id = "refresh.rotation"
    static let group = CheckGroup.refresh
    static let level = CheckLevel.should
    static let source = SourceCitation.rfc(9700, "§4.14.2", "Refresh Token Protection: Recommendations")
    static let summary = "A refresh answers a new access token and a new refresh token"

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        try await RefreshExperiment.run(in: session).orSkip().judgeRotation()
    }
}
