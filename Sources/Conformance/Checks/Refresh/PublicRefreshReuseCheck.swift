/// RFC 9700 §4.14.2: rotation protects a public client only with reuse detection: the replayed old token is refused
/// and the family revoked, so whichever of user and thief refreshes second loses the session.
struct PublicRefreshReuseCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "refresh.public-reuse-detection", group: .refresh, level: .must, source: .rfc(9700, "§4.14.2", "Refresh Token Protection: Recommendations"),
        summary: "The public client's rotated refresh token used again is refused (invalid_grant) and the newer one revoked")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try session.options.required(.publicClient)
        return try await PublicRefresh.experiment(in: session).judgeReuse()
    }
}

/// The public client's experiment, or why its rules do not apply.
enum PublicRefresh {
    static func experiment(in session: ConformanceSession) async throws(CheckSkipped) -> RefreshExperiment {
        switch await RefreshExperiment.run(in: session, client: .publicClient) {
        case .failure(let failure) where failure.reason == "no refresh_token was issued":
            throw CheckSkipped("the public client gets no refresh token, so there is nothing to rotate")
        case .failure(let failure): throw CheckSkipped(failure.reason)
        case .success(let experiment):
            // RFC 9449 §5: a DPoP-bound token is sender-constrained, the other way the section allows.
            if experiment.issued.json?["token_type"]?.stringValue?.lowercased() == "dpop" {
                throw CheckSkipped("the refresh token is DPoP-bound (sender-constrained); the binding is not checked here")
            }
            return experiment
        }
    }
}
