/// RFC 9700 §4.14.2: refresh tokens are rotated (a new one with each refresh) or bound to the client; rotation is
/// what lets the host notice a stolen one.
struct RefreshRotationCheck: ConformanceCheck {
    static let id = "refresh.rotation"
    static let group = CheckGroup.refresh
    static let level = CheckLevel.should
    static let source = SourceCitation.rfc(9700, "§4.14.2", "Refresh Token Protection: Recommendations")
    static let summary = "A refresh answers a new access token and a new refresh token"

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let experiment = try await RefreshExperiment.run(in: session).orSkip()
        let second = experiment.rotated
        guard second.response.status == 200, second.accessToken != nil else { return .fail("the refresh answered \(second.summary)") }
        guard let rotated = second.refreshToken else { return .fail("no new refresh_token: the old one stays valid") }
        return rotated == experiment.old ? .fail("the same refresh_token came back") : .pass("rotated")
    }
}
