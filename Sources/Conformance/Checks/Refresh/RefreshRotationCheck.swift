/// RFC 9700 §4.14.2: refresh tokens are rotated (a new one with each refresh) or bound to the client; rotation is
/// what lets the host notice a stolen one.
struct RefreshRotationCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "refresh.rotation", group: .refresh, level: .should, source: .rfc(9700, "§4.14.2", "Refresh Token Protection: Recommendations"),
        summary: "A refresh answers a new access token and a new refresh token")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        try await RefreshExperiment.run(in: session).orSkip().judgeRotation()
    }
}
