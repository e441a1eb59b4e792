/// OpenID Connect Core 1.0 §5.7: `sub` with `iss` is the only stable identifier of the user; two sign-ins of the
/// same user must give the same `sub`, or every relying party creates a new account each time.
struct StableSubjectCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "openid.stable-sub", group: .openid, level: .must, source: .openID("core", "§5.7 (Claim Stability and Uniqueness)", anchor: "ClaimStability"),
        summary: "Two openid sign-ins of the same user give ID tokens with the same sub")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try await OpenIDSignIn.discovery(in: session)
        let pair = try await OpenIDSignIn.pair(in: session).orSkip()
        guard let first = pair[0].claims?["sub"]?.stringValue, let second = pair[1].claims?["sub"]?.stringValue else {
            return .skip("no sub to compare (see openid.id-token)")
        }
        return first == second ? .pass("the same sub twice") : .fail("sub changed between sign-ins: \(first) then \(second)")
    }
}
