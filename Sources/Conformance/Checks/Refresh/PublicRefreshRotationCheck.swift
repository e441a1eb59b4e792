/// RFC 9700 §4.14.2: a public client's refresh tokens MUST be sender-constrained or rotated; a public client has no
/// secret, so a stolen refresh token that is neither works for the thief for as long as it lives.
struct PublicRefreshRotationCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "refresh.public-rotation", group: .refresh, level: .must, source: .rfc(9700, "§4.14.2", "Refresh Token Protection: Recommendations"),
        summary: "The public client's refresh token, unless DPoP-bound, is rotated on each refresh")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try session.options.required(.publicClient)
        let experiment = try await PublicRefresh.experiment(in: session)
        return experiment.judgeRotation()
    }
}
