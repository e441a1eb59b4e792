/// Microsoft's cloud renews Office's sign-in with `grant_type` and `refresh_token` only; RFC 6749 §6 makes `scope`
/// optional there ("if omitted is treated as equal to the scope originally granted"), so a host, or the identity
/// provider it names, that requires it signs every Office user out when the first access token expires.
struct RefreshWithoutScopeCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "refresh.without-scope", group: .refresh, level: .must, source: .rfc(6749, "§6", "Refreshing an Access Token"),
        summary: "A refresh with only grant_type and refresh_token (no scope, as Office sends it) answers a new access token")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let experiment = try await RefreshExperiment.run(in: session).orSkip()
        guard experiment.rotated.response.status == 200, experiment.rotated.accessToken?.isEmpty == false else {
            return .fail("the refresh without scope answered \(experiment.rotated.summary)")
        }
        return .pass("answered 200 with an access token")
    }
}
